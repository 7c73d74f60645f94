// A tiny embedding model in the Hugging Face folder layout, built here so tests need no downloaded
// weights: config.json (a BERT), tokenizer.json (WordLevel, lower-cased, whitespace split) and
// onnx/model.onnx (one Gather: token id → a row of an embedding table, the `last_hidden_state`).
// The pipeline's mean pooling and normalisation do the rest. Words of one `topic` share a row, so
// "automobile" finds a document about cars: a semantic match that keyword search cannot make.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export interface TinyModelOptions {
  /** Groups of synonyms: each group is one direction of the embedding space. */
  topics?: readonly (readonly string[])[];
  /** Vector length (at least the number of topics + 1). */
  dims?: number;
  /** Seed for the rows of words outside the topics (a different seed is a different model). */
  seed?: number;
  /** Write onnx/model_quantized.onnx as well (the same weights: the q8 file name). */
  quantized?: boolean;
}

export const TINY_TOPICS: readonly (readonly string[])[] = [
  ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'engine', 'driving'],
  ['ocean', 'sea', 'marine', 'waves', 'tide', 'coast', 'sailing'],
  ['bread', 'baking', 'flour', 'oven', 'dough', 'loaf', 'yeast'],
  ['planet', 'planets', 'astronomy', 'telescope', 'orbit', 'stars', 'galaxy'],
  ['guitar', 'music', 'melody', 'chords', 'song', 'rhythm', 'concert'],
];

const FILLER = 'the a an of and to in is are on for with about how why what this that it notes document page'.split(
  ' ',
);

/** Writes the model folder and returns its vocabulary size. */
export async function writeTinyModel(
  dir: string,
  options: TinyModelOptions = {},
): Promise<{ dims: number; vocab: number }> {
  const topics = options.topics ?? TINY_TOPICS;
  const dims = options.dims ?? 16;
  let seed = options.seed ?? 1;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648 - 0.5;
  };
  const vocab: Record<string, number> = { '[PAD]': 0, '[UNK]': 1 };
  const rows: number[][] = [new Array<number>(dims).fill(0), unit(dims, dims - 1, 0.2)];
  topics.forEach((words, t) => {
    for (const word of words) {
      vocab[word] = rows.length;
      rows.push(unit(dims, t, 1).map((v) => v + random() * 0.05));
    }
  });
  for (const word of FILLER) {
    vocab[word] = rows.length;
    rows.push(Array.from({ length: dims }, () => random() * 0.1)); // weak: filler barely moves a mean
  }
  await mkdir(join(dir, 'onnx'), { recursive: true });
  const model = encodeModel(rows, dims);
  await writeFile(join(dir, 'onnx', 'model.onnx'), model);
  if (options.quantized) await writeFile(join(dir, 'onnx', 'model_quantized.onnx'), model);
  await writeFile(
    join(dir, 'config.json'),
    JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: dims, vocab_size: rows.length }),
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
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  return { dims, vocab: rows.length };
}

function unit(dims: number, axis: number, value: number): number[] {
  const row = new Array<number>(dims).fill(0);
  row[axis] = value;
  return row;
}

function tokenizerJson(vocab: Record<string, number>): object {
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '[PAD]'), special(1, '[UNK]')],
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab, unk_token: '[UNK]' },
  };
}

/** input_ids [batch, seq] (int64) → Gather(table) → last_hidden_state [batch, seq, dims] (float). */
function encodeModel(rows: readonly number[][], dims: number): Uint8Array {
  const { TensorProto } = onnx;
  const dim = (name: string | number) => (typeof name === 'number' ? { dimValue: name } : { dimParam: name });
  const valueInfo = (name: string, elemType: number, shape: (string | number)[]) => ({
    name,
    type: { tensorType: { elemType, shape: { dim: shape.map(dim) } } },
  });
  const graph = {
    name: 'tiny-embedder',
    node: [
      {
        opType: 'Gather',
        input: ['embeddings', 'input_ids'],
        output: ['last_hidden_state'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
    ],
    initializer: [
      { name: 'embeddings', dataType: TensorProto.DataType.FLOAT, dims: [rows.length, dims], floatData: rows.flat() },
    ],
    input: [valueInfo('input_ids', TensorProto.DataType.INT64, ['batch', 'sequence'])],
    output: [valueInfo('last_hidden_state', TensorProto.DataType.FLOAT, ['batch', 'sequence', dims])],
  };
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'kbctx-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}
