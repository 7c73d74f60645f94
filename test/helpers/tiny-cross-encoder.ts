// A tiny cross-encoder in the Hugging Face folder layout, built here so tests need no downloaded
// weights: config.json (a BERT for sequence classification, one label), tokenizer.json (WordLevel,
// lower-cased, whitespace split) and onnx/model.onnx: input_ids → Gather(a weight per token) →
// ReduceSum over the sequence → `logits` [batch, 1]. A pair scores the sum of its words' weights, so
// documents with more of the `weights` words rank first: the compute shape of a reranker, not its sense.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** Writes the model folder: each word of `vocabulary` weighs 0 unless `weights` gives it one. */
export async function writeTinyCrossEncoder(
  dir: string,
  vocabulary: readonly string[],
  weights: Readonly<Record<string, number>>,
): Promise<void> {
  const vocab: Record<string, number> = { '[PAD]': 0, '[UNK]': 1 };
  const table = [0, 0];
  for (const word of vocabulary) {
    if (word in vocab) continue;
    vocab[word] = table.length;
    table.push(weights[word] ?? 0);
  }
  await mkdir(join(dir, 'onnx'), { recursive: true });
  await writeFile(join(dir, 'onnx', 'model.onnx'), encodeModel(table));
  await writeFile(
    join(dir, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertForSequenceClassification'],
      vocab_size: table.length,
      id2label: { 0: 'LABEL_0' },
      label2id: { LABEL_0: 0 },
    }),
  );
  await writeFile(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'PreTrainedTokenizer',
      model_max_length: 512,
      pad_token: '[PAD]',
      unk_token: '[UNK]',
    }),
  );
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  await writeFile(
    join(dir, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: [special(0, '[PAD]'), special(1, '[UNK]')],
      normalizer: { type: 'Lowercase' },
      pre_tokenizer: { type: 'Whitespace' },
      post_processor: null,
      decoder: null,
      model: { type: 'WordLevel', vocab, unk_token: '[UNK]' },
    }),
  );
}

/** input_ids [batch, seq] → Gather(table [vocab, 1]) → ReduceSum(axis 1) → logits [batch, 1]. */
function encodeModel(table: readonly number[]): Uint8Array {
  const { TensorProto } = onnx;
  const dim = (name: string | number) => (typeof name === 'number' ? { dimValue: name } : { dimParam: name });
  const valueInfo = (name: string, elemType: number, shape: (string | number)[]) => ({
    name,
    type: { tensorType: { elemType, shape: { dim: shape.map(dim) } } },
  });
  const graph = {
    name: 'tiny-cross-encoder',
    node: [
      {
        opType: 'Gather',
        input: ['weights', 'input_ids'],
        output: ['per_token'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
      {
        opType: 'ReduceSum',
        input: ['per_token', 'axes'],
        output: ['logits'],
        attribute: [{ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
    ],
    initializer: [
      { name: 'weights', dataType: TensorProto.DataType.FLOAT, dims: [table.length, 1], floatData: [...table] },
      { name: 'axes', dataType: TensorProto.DataType.INT64, dims: [1], int64Data: [1] },
    ],
    input: [valueInfo('input_ids', TensorProto.DataType.INT64, ['batch', 'sequence'])],
    output: [valueInfo('logits', TensorProto.DataType.FLOAT, ['batch', 1])],
  };
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'kbctx-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}
