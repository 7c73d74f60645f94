// Runs the store contract suite against LanceStore in a bucket (ADR 0231) on a real S3-compatible server
// (s3rver): a prefix per case; `reopen` opens a second store on the same prefix (another replica's view), asking the
// bucket for the latest version before every read (freshMs 0) so what the other connection committed shows at once.
import { after, before } from 'node:test';
import { storeContract } from '../../contract/store/store.contract.ts';
import { openLanceStore } from '../../../plugins/store-lancedb/lance-store.ts';
import { startS3Server, S3_TEST_ENV, type S3TestServer } from '../../helpers/s3-server.ts';

let s3: S3TestServer | undefined;
before(async () => {
  s3 = await startS3Server(['kb']);
});
after(() => s3?.stop());
let prefixes = 0;
const settings = () => ({
  storageOptions: {
    endpoint: s3!.endpoint,
    allow_http: 'true',
    aws_access_key_id: S3_TEST_ENV.AWS_ACCESS_KEY_ID,
    aws_secret_access_key: S3_TEST_ENV.AWS_SECRET_ACCESS_KEY,
    region: 'us-east-1',
  },
  freshMs: 0,
});

storeContract('lancedb in s3rver', () => openLanceStore(`s3://kb/index-${prefixes++}`, 'create', settings()), {
  reopen: (store) => openLanceStore(store.path, 'create', settings()),
});
