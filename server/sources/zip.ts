import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';

/**
 * Reads one entry out of a ZIP archive on disk (Kaggle sends data files zipped): the central
 * directory at the end of the file says where the entry is; the entry is streamed (inflated when
 * deflated) to its own file with a cap on the bytes it expands to, so a ZIP bomb stops early.
 * ZIP64 archives (over 4 GB) are not needed at these sizes and are refused.
 */

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export class ZipError extends Error {}

export async function listZip(file: string): Promise<ZipEntry[]> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new ZipError('not a ZIP archive (no end of central directory)');
    const count = tail.readUInt16LE(eocd + 10);
    const dirSize = tail.readUInt32LE(eocd + 12);
    const dirOffset = tail.readUInt32LE(eocd + 16);
    if (dirOffset === 0xffffffff || count === 0xffff)
      throw new ZipError('ZIP64 archives are not supported');
    const dir = Buffer.alloc(dirSize);
    await handle.read(dir, 0, dirSize, dirOffset);
    const entries: ZipEntry[] = [];
    let p = 0;
    for (let n = 0; n < count; n++) {
      if (dir.readUInt32LE(p) !== 0x02014b50) throw new ZipError('damaged central directory');
      const nameLength = dir.readUInt16LE(p + 28);
      const extraLength = dir.readUInt16LE(p + 30);
      const commentLength = dir.readUInt16LE(p + 32);
      entries.push({
        method: dir.readUInt16LE(p + 10),
        compressedSize: dir.readUInt32LE(p + 20),
        size: dir.readUInt32LE(p + 24),
        name: dir.toString('utf8', p + 46, p + 46 + nameLength),
        localHeaderOffset: dir.readUInt32LE(p + 42),
      });
      p += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await handle.close();
  }
}

/** Streams `entry` of the archive to `out`, refusing to write more than `maxBytes`. */
export async function extractZipEntry(
  file: string,
  entry: ZipEntry,
  out: string,
  maxBytes: number,
): Promise<number> {
  if (entry.method !== 0 && entry.method !== 8) {
    throw new ZipError(
      `${entry.name} uses compression method ${entry.method} (only stored and deflate are read)`,
    );
  }
  const handle = await open(file, 'r');
  const local = Buffer.alloc(30);
  try {
    await handle.read(local, 0, 30, entry.localHeaderOffset);
  } finally {
    await handle.close();
  }
  if (local.readUInt32LE(0) !== 0x04034b50) throw new ZipError('damaged local file header');
  const start = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  let written = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      written += chunk.length;
      if (written > maxBytes) {
        return done(
          new ZipError(
            `${entry.name} expands to more than ${Math.round(maxBytes / 1024 / 1024)} MB`,
          ),
        );
      }
      done(null, chunk);
    },
  });
  const raw = createReadStream(file, { start, end: start + entry.compressedSize - 1 });
  if (entry.method === 8 && entry.compressedSize > 0) {
    await pipeline(raw, createInflateRaw(), cap, createWriteStream(out));
  } else {
    await pipeline(raw, cap, createWriteStream(out));
  }
  return written;
}
