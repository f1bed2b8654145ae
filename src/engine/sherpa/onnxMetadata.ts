// What an .onnx file says about itself (ir_version, producer, opset, metadata_props) without loading the graph:
// the file is a protobuf ModelProto whose top-level fields are read one by one, skipping the graph (which can be
// gigabytes) by its length. sherpa-onnx tells model families apart by these metadata keys (model_type,
// vocab_size, lfr_window_size, ...), and a file that is not a model at all is refused here with a clear reason
// instead of by the native library (which may exit the process).
import fs from 'node:fs';

export interface OnnxMetadata {
  irVersion?: number;
  producerName?: string;
  opsetVersion?: number;
  /** metadata_props as a map. */
  props: Record<string, string>;
}

export class NotAnOnnxModel extends Error {
  constructor(file: string, why: string) {
    super(`${file} is not an ONNX model (${why})`);
    this.name = 'NotAnOnnxModel';
  }
}

// ModelProto field numbers (onnx.proto).
const IR_VERSION = 1;
const PRODUCER_NAME = 2;
const GRAPH = 7;
const OPSET_IMPORT = 8;
const METADATA_PROPS = 14;

/** Reads varints and length-delimited fields from a file descriptor at increasing positions. */
class Reader {
  private readonly buf = Buffer.alloc(16);
  constructor(
    private readonly fd: number,
    readonly size: number,
    public pos = 0,
  ) {}

  varint(): number {
    const n = fs.readSync(this.fd, this.buf, 0, Math.min(10, this.size - this.pos), this.pos);
    let value = 0;
    let scale = 1;
    for (let i = 0; i < n; i++) {
      const byte = this.buf[i];
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if ((byte & 0x80) === 0) {
        this.pos += i + 1;
        return value;
      }
    }
    throw new Error('truncated varint');
  }

  bytes(length: number): Buffer {
    if (this.pos + length > this.size) throw new Error('field runs past the end of the file');
    const out = Buffer.alloc(length);
    fs.readSync(this.fd, out, 0, length, this.pos);
    this.pos += length;
    return out;
  }
}

/** Reads the fields of a small embedded message held in memory. */
function fieldsOf(message: Buffer): { field: number; value: Buffer | number }[] {
  const out: { field: number; value: Buffer | number }[] = [];
  let pos = 0;
  const varint = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (pos >= message.length) throw new Error('truncated varint');
      const byte = message[pos++];
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if ((byte & 0x80) === 0) return value;
    }
  };
  while (pos < message.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 0) out.push({ field, value: varint() });
    else if (wire === 2) {
      const length = varint();
      out.push({ field, value: message.subarray(pos, pos + length) });
      pos += length;
    } else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else throw new Error(`unexpected wire type ${wire}`);
  }
  return out;
}

export function readOnnxMetadata(file: string): OnnxMetadata {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (size === 0) throw new NotAnOnnxModel(file, 'the file is empty');
    const reader = new Reader(fd, size);
    const meta: OnnxMetadata = { props: {} };
    let sawGraph = false;
    try {
      while (reader.pos < size) {
        const tag = reader.varint();
        const field = Math.floor(tag / 8);
        const wire = tag & 7;
        if (field === 0) throw new Error('field number 0');
        if (wire === 0) {
          const value = reader.varint();
          if (field === IR_VERSION) meta.irVersion = value;
        } else if (wire === 2) {
          const length = reader.varint();
          if (field === GRAPH) {
            sawGraph = true;
            reader.pos += length;
            if (reader.pos > size) throw new Error('the graph runs past the end of the file');
          } else if (field === PRODUCER_NAME) meta.producerName = reader.bytes(length).toString('utf8');
          else if (field === METADATA_PROPS) {
            const entry = fieldsOf(reader.bytes(length));
            const key = entry.find((f) => f.field === 1)?.value;
            const value = entry.find((f) => f.field === 2)?.value;
            if (Buffer.isBuffer(key)) meta.props[key.toString('utf8')] = Buffer.isBuffer(value) ? value.toString('utf8') : '';
          } else if (field === OPSET_IMPORT) {
            const opset = fieldsOf(reader.bytes(length));
            const domain = opset.find((f) => f.field === 1)?.value;
            const version = opset.find((f) => f.field === 2)?.value;
            if ((!domain || (Buffer.isBuffer(domain) && domain.length === 0)) && typeof version === 'number') meta.opsetVersion = version;
          } else reader.pos += length;
        } else if (wire === 1) reader.pos += 8;
        else if (wire === 5) reader.pos += 4;
        else throw new Error(`unexpected wire type ${wire} at byte ${reader.pos}`);
      }
    } catch (error) {
      if (error instanceof NotAnOnnxModel) throw error;
      throw new NotAnOnnxModel(file, (error as Error).message);
    }
    if (!sawGraph || meta.irVersion === undefined) throw new NotAnOnnxModel(file, 'no graph or no ir_version');
    return meta;
  } finally {
    fs.closeSync(fd);
  }
}
