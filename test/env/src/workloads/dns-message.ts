// The few parts of the DNS wire format (RFC 1035) a cluster DNS needs: a query's question, and an answer of
// A records or an empty answer with a response code.

export const RECORD_TYPE = { A: 1, AAAA: 28 } as const;
export const RESPONSE_CODE = { noError: 0, formatError: 1, serverFailure: 2, nameError: 3 } as const;

const HEADER_BYTES = 12;
const FLAG_RESPONSE = 0x8000;
const FLAG_RECURSION_AVAILABLE = 0x0080;
/** The query's opcode and recursion-desired bit, which a response repeats. */
const FLAGS_ECHOED = 0x7900;

export interface Question {
  readonly id: number;
  /** Lower case, without the trailing dot. */
  readonly name: string;
  readonly type: number;
  /** The question as it was sent (name, type, class), which the answer repeats. */
  readonly raw: Buffer;
  readonly flags: number;
}

/** The first question of a query, or undefined when the message is not a query this server reads. */
export function readQuestion(message: Buffer): Question | undefined {
  if (message.length < HEADER_BYTES) return undefined;
  const flags = message.readUInt16BE(2);
  if ((flags & FLAG_RESPONSE) !== 0 || message.readUInt16BE(4) < 1) return undefined;
  const labels: string[] = [];
  let offset = HEADER_BYTES;
  for (;;) {
    const length = message[offset];
    if (length === undefined || length > 63) return undefined;
    offset += 1;
    if (length === 0) break;
    if (offset + length > message.length) return undefined;
    labels.push(message.toString('latin1', offset, offset + length).toLowerCase());
    offset += length;
  }
  if (offset + 4 > message.length) return undefined;
  return { id: message.readUInt16BE(0), name: labels.join('.'), type: message.readUInt16BE(offset), raw: message.subarray(HEADER_BYTES, offset + 4), flags };
}

/** The answer to `question`: its IPv4 `addresses` as A records (none: an empty answer), with `code`. */
export function answer(question: Question, code: number, addresses: readonly string[] = [], ttlSeconds = 5): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt16BE(question.id, 0);
  header.writeUInt16BE(FLAG_RESPONSE | FLAG_RECURSION_AVAILABLE | (question.flags & FLAGS_ECHOED) | code, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(addresses.length, 6);
  const records = addresses.map((address) => {
    const record = Buffer.alloc(16);
    // The name as a pointer to the question's, which starts right after the header.
    record.writeUInt16BE(0xc000 | HEADER_BYTES, 0);
    record.writeUInt16BE(RECORD_TYPE.A, 2);
    record.writeUInt16BE(1, 4);
    record.writeUInt32BE(ttlSeconds, 6);
    record.writeUInt16BE(4, 10);
    address.split('.').forEach((octet, index) => record.writeUInt8(Number(octet), 12 + index));
    return record;
  });
  return Buffer.concat([header, question.raw, ...records]);
}
