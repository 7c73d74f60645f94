// Translates a TF.js graph model (model.json + its weight shards, as the bundled USE Lite ships) into
// an ONNX model in memory, node for node, so ONNX Runtime computes the same graph (ADR 0188). Covers
// the ops USE Lite uses; any other op throws (the caller then keeps TF.js). Every integer tensor
// becomes int64 (ONNX's shape and index type), floats stay float32. Never writes a file.
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const T = onnx.TensorProto.DataType;
const A = onnx.AttributeProto.AttributeType;

interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<
    string,
    {
      i?: string;
      b?: boolean;
      s?: string;
      type?: string | number;
      list?: { i?: string[] };
      shape?: { dim?: { size: string }[] };
    }
  >;
}
export interface TfjsGraphModel {
  modelTopology: { node: TfNode[] };
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: 'float32' | 'int32' }[] }[];
}

interface Const {
  dtype: 'float32' | 'int64';
  shape: number[];
  values: Float32Array | BigInt64Array;
}

const I64_MAX = 9223372036854775807n;

/** ONNX element type of a TF dtype attribute (ints → int64). */
function elemType(type: string | number | undefined): number {
  const t = String(type);
  if (t === '1' || t === 'DT_FLOAT') return T.FLOAT;
  if (t === '10' || t === 'DT_BOOL') return T.BOOL;
  if (['3', '9', 'DT_INT32', 'DT_INT64'].includes(t)) return T.INT64;
  throw new Error(`unsupported TF dtype ${t}`);
}

/** The model's constants, read from the concatenated weight shards. */
function readConsts(model: TfjsGraphModel, shards: readonly Uint8Array[]): Map<string, Const> {
  const consts = new Map<string, Const>();
  for (const group of model.weightsManifest) {
    const bytes = Buffer.concat(group.paths.map((_, i) => shards[i]!));
    let offset = 0;
    for (const w of group.weights) {
      const n = w.shape.reduce((a, b) => a * b, 1);
      const view = bytes.subarray(offset, offset + n * 4);
      offset += n * 4;
      const copy = new ArrayBuffer(n * 4);
      new Uint8Array(copy).set(view);
      consts.set(
        w.name,
        w.dtype === 'float32'
          ? { dtype: 'float32', shape: w.shape, values: new Float32Array(copy) }
          : { dtype: 'int64', shape: w.shape, values: BigInt64Array.from(new Int32Array(copy), (v) => BigInt(v)) },
      );
    }
  }
  return consts;
}

/** `node:1` → ONNX tensor name (`node:0` is `node`); control inputs (`^x`) are dropped by the caller. */
const ref = (input: string): string => (input.endsWith(':0') ? input.slice(0, -2) : input);

export function tfjsToOnnx(model: TfjsGraphModel, shards: readonly Uint8Array[], output: string): Uint8Array {
  const consts = readConsts(model, shards);
  const nodes: object[] = [];
  const initializer: object[] = [];
  const inputs: object[] = [];
  let serial = 0;
  const fresh = (base: string): string => `${base}__${serial++}`;
  const tensor = (name: string, c: Const): object => ({
    name,
    dataType: c.dtype === 'float32' ? T.FLOAT : T.INT64,
    dims: c.shape,
    rawData: new Uint8Array(c.values.buffer, c.values.byteOffset, c.values.byteLength),
  });
  const ints = (name: string, values: readonly (number | bigint)[], shape = [values.length]): string => {
    const n = fresh(name);
    initializer.push(tensor(n, { dtype: 'int64', shape, values: BigInt64Array.from(values, (v) => BigInt(v)) }));
    return n;
  };
  const emit = (opType: string, input: string[], output: string[], attribute: object[] = []): void =>
    void nodes.push({ opType, input, output, attribute, name: fresh(output[0]!) });
  const intAttr = (name: string, i: number): object => ({ name, type: A.INT, i });
  const intsAttr = (name: string, list: readonly number[]): object => ({ name, type: A.INTS, ints: list });
  const constOf = (input: string | undefined): Const => {
    const c = input === undefined ? undefined : consts.get(ref(input));
    if (!c) throw new Error(`expected a constant input, got ${input}`);
    return c;
  };
  const numbers = (input: string | undefined): number[] =>
    Array.from(constOf(input).values as ArrayLike<number | bigint>, Number);

  for (const node of model.modelTopology.node) {
    const name = node.name;
    const ins = (node.input ?? []).filter((i) => !i.startsWith('^')).map(ref);
    const attr = node.attr ?? {};
    const flag = (key: string): boolean => attr[key]?.b === true;
    const int = (key: string): number => Number(attr[key]?.i ?? 0);
    const unary: Record<string, string> = { Sin: 'Sin', Cos: 'Cos', Tanh: 'Tanh', Relu: 'Relu', LogicalNot: 'Not' };
    const binary: Record<string, string> = {
      Add: 'Add',
      BiasAdd: 'Add',
      Sub: 'Sub',
      Mul: 'Mul',
      RealDiv: 'Div',
      Maximum: 'Max',
      Less: 'Less',
      Greater: 'Greater',
    };
    const reduce: Record<string, string> = {
      Max: 'ReduceMax',
      Sum: 'ReduceSum',
      Mean: 'ReduceMean',
      Prod: 'ReduceProd',
    };
    switch (node.op) {
      case 'Const':
        initializer.push(tensor(name, constOf(name)));
        break;
      case 'Placeholder': {
        const dims = (attr['shape']?.shape?.dim ?? []).map((d, i) =>
          Number(d.size) < 0 ? { dimParam: `${name}_${i}` } : { dimValue: Number(d.size) },
        );
        inputs.push({ name, type: { tensorType: { elemType: elemType(attr['dtype']?.type), shape: { dim: dims } } } });
        break;
      }
      case 'Where': // TF: [n, rank] coordinates of the true elements; ONNX NonZero: [rank, n]
        emit('NonZero', [ins[0]!], [`${name}__nz`]);
        emit('Transpose', [`${name}__nz`], [name], [intsAttr('perm', [1, 0])]);
        break;
      case 'Reshape':
        emit('Reshape', [ins[0]!, ins[1]!], [name]);
        break;
      case 'Shape':
        emit('Shape', [ins[0]!], [name]);
        break;
      case 'GatherV2':
        emit('Gather', [ins[0]!, ins[1]!], [name], [intAttr('axis', numbers(ins[2])[0]!)]);
        break;
      case 'GatherNd':
        emit('GatherND', [ins[0]!, ins[1]!], [name]);
        break;
      case 'ScatterNd': {
        // TF: zeros of `shape` with `updates` written at `indices` (float updates here).
        emit(
          'ConstantOfShape',
          [ins[2]!],
          [`${name}__zeros`],
          [{ name: 'value', type: A.TENSOR, t: { dataType: T.FLOAT, dims: [1], floatData: [0] } }],
        );
        emit('ScatterND', [`${name}__zeros`, ins[0]!, ins[1]!], [name]);
        break;
      }
      case 'SparseToDense': // (indices, output_shape, values, default)
        emit('Expand', [ins[3]!, ins[1]!], [`${name}__base`]);
        emit('ScatterND', [`${name}__base`, ins[0]!, ins[2]!], [name]);
        break;
      case 'Cast':
        emit('Cast', [ins[0]!], [name], [intAttr('to', elemType(attr['DstT']?.type))]);
        break;
      case 'ConcatV2':
        emit('Concat', ins.slice(0, -1), [name], [intAttr('axis', numbers(ins.at(-1))[0]!)]);
        break;
      case 'ExpandDims':
        emit('Unsqueeze', [ins[0]!, ints(`${name}_axes`, numbers(ins[1]).slice(0, 1))], [name]);
        break;
      case 'Squeeze':
        emit('Squeeze', [ins[0]!, ints(`${name}_axes`, (attr['squeeze_dims']?.list?.i ?? []).map(Number))], [name]);
        break;
      case 'Square':
        emit('Mul', [ins[0]!, ins[0]!], [name]);
        break;
      case 'Rsqrt':
        emit('Sqrt', [ins[0]!], [`${name}__sqrt`]);
        emit('Reciprocal', [`${name}__sqrt`], [name]);
        break;
      case 'Softmax':
        emit('Softmax', [ins[0]!], [name], [intAttr('axis', -1)]);
        break;
      case 'Range':
        emit('Range', [ins[0]!, ins[1]!, ins[2]!], [name]);
        break;
      case 'Transpose':
        emit('Transpose', [ins[0]!], [name], [intsAttr('perm', numbers(ins[1]))]);
        break;
      case 'MatMul':
      case 'BatchMatMul': {
        const [ta, tb] =
          node.op === 'MatMul' ? [flag('transpose_a'), flag('transpose_b')] : [flag('adj_x'), flag('adj_y')];
        const side = (input: string, transposed: boolean, tag: string): string => {
          if (!transposed) return input;
          const rank = node.op === 'MatMul' ? 2 : 4; // USE Lite's batched products are [batch, heads, len, depth]
          const perm = [...Array(rank - 2).keys(), rank - 1, rank - 2];
          emit('Transpose', [input], [`${name}__${tag}`], [intsAttr('perm', perm)]);
          return `${name}__${tag}`;
        };
        emit('MatMul', [side(ins[0]!, ta, 'a'), side(ins[1]!, tb, 'b')], [name]);
        break;
      }
      case 'Conv2D': {
        // 1×1 kernels, stride 1, NHWC: a product with the [in, out] kernel over the last axis.
        const kernel = constOf(ins[1]);
        if (kernel.shape[0] !== 1 || kernel.shape[1] !== 1)
          throw new Error(`Conv2D ${name}: only 1×1 kernels are supported`);
        emit('Reshape', [ins[1]!, ints(`${name}_kshape`, kernel.shape.slice(2))], [`${name}__kernel`]);
        emit('MatMul', [ins[0]!, `${name}__kernel`], [name]);
        break;
      }
      case 'SplitV': {
        const outputs = Array.from({ length: int('num_split') }, (_, i) => (i === 0 ? name : `${name}:${i}`));
        emit('Split', [ins[0]!, ins[1]!], outputs, [intAttr('axis', numbers(ins[2])[0]!)]);
        break;
      }
      case 'Pack': {
        const axis = int('axis');
        const parts = ins.map((input, i) => {
          emit('Unsqueeze', [input, ints(`${name}_axes`, [axis])], [`${name}__${i}`]);
          return `${name}__${i}`;
        });
        emit('Concat', parts, [name], [intAttr('axis', axis)]);
        break;
      }
      case 'Slice': {
        const begin = numbers(ins[1]);
        const size = numbers(ins[2]);
        const ends = begin.map((b, i) => (size[i] === -1 ? I64_MAX : BigInt(b + size[i]!)));
        emit('Slice', [ins[0]!, ints(`${name}_starts`, begin), ints(`${name}_ends`, ends)], [name]);
        break;
      }
      case 'StridedSlice': {
        if (int('ellipsis_mask') !== 0 || int('new_axis_mask') !== 0)
          throw new Error(`StridedSlice ${name}: ellipsis and new axes are not supported`);
        const begin = numbers(ins[1]);
        const end = numbers(ins[2]);
        const strides = numbers(ins[3]);
        if (strides.some((s) => s !== 1)) throw new Error(`StridedSlice ${name}: only stride 1 is supported`);
        const bit = (mask: string, i: number): boolean => ((int(mask) >> i) & 1) === 1;
        const starts: bigint[] = [];
        const ends: bigint[] = [];
        const shrink: number[] = [];
        begin.forEach((b, i) => {
          if (bit('shrink_axis_mask', i)) {
            starts.push(BigInt(b));
            ends.push(b === -1 ? I64_MAX : BigInt(b + 1));
            shrink.push(i);
            return;
          }
          starts.push(bit('begin_mask', i) ? 0n : BigInt(b));
          ends.push(bit('end_mask', i) ? I64_MAX : BigInt(end[i]!));
        });
        const axes = begin.map((_, i) => i);
        const sliced = shrink.length > 0 ? `${name}__sliced` : name;
        emit(
          'Slice',
          [ins[0]!, ints(`${name}_starts`, starts), ints(`${name}_ends`, ends), ints(`${name}_axes`, axes)],
          [sliced],
        );
        if (shrink.length > 0) emit('Squeeze', [sliced, ints(`${name}_shrink`, shrink)], [name]);
        break;
      }
      default:
        if (unary[node.op]) emit(unary[node.op]!, [ins[0]!], [name]);
        else if (binary[node.op]) emit(binary[node.op]!, [ins[0]!, ins[1]!], [name]);
        else if (reduce[node.op]) {
          const axes = numbers(ins[1]);
          emit(
            reduce[node.op]!,
            [ins[0]!, ints(`${name}_axes`, axes)],
            [name],
            [intAttr('keepdims', flag('keep_dims') ? 1 : 0)],
          );
        } else throw new Error(`TF.js op ${node.op} (${name}) has no ONNX translation`);
    }
  }
  const graph = {
    name: 'tfjs-graph',
    node: nodes,
    initializer,
    input: inputs,
    output: [{ name: output, type: { tensorType: { elemType: T.FLOAT } } }],
  };
  const onnxModel = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'kbctx',
    opsetImport: [{ domain: '', version: 18 }],
    graph,
  });
  return onnx.ModelProto.encode(onnxModel).finish();
}
