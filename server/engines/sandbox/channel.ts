/**
 * Parses what the wrapper script reports on its control channel (fd 3): the program's exit
 * status and the figures it left in the working directory. The program itself cannot write to
 * the channel (the wrapper closes fd 3 for it), but code inside the sandbox is untrusted, so the
 * parser accepts any bytes without throwing and takes only well-formed frames.
 */

export interface Figure {
  name: string;
  mimeType: 'image/png' | 'image/svg+xml';
  /** The file's bytes in base64. */
  base64: string;
  bytes: number;
}

export interface ChannelReport {
  /** The program's exit status as the shell saw it (128 + n for signal n); null if never reported. */
  exitStatus: number | null;
  figures: Figure[];
  /** Figures left out: too large, too many or an unusable name. */
  skipped: Array<{ name: string; reason: string }>;
}

const NAME = /^[A-Za-z0-9._-]{1,255}$/;

function mimeOf(name: string): Figure['mimeType'] | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.png')) return 'image/png';
  if (lower.endsWith('.svg')) return 'image/svg+xml';
  return null;
}

export function parseChannel(data: Buffer, maxFigureBytes: number): ChannelReport {
  const report: ChannelReport = { exitStatus: null, figures: [], skipped: [] };
  let pos = 0;
  while (pos < data.length) {
    const nl = data.indexOf(0x0a, pos);
    if (nl < 0 || nl - pos > 600) break;
    const line = data.subarray(pos, nl).toString('latin1');
    pos = nl + 1;
    const parts = line.split(' ');
    if (parts[0] === 'EXIT' && parts.length === 2 && /^\d{1,3}$/.test(parts[1]!)) {
      report.exitStatus ??= Number(parts[1]);
    } else if (parts[0] === 'SKIP' && parts.length === 3) {
      report.skipped.push({ reason: parts[1]!, name: parts[2]! });
    } else if (parts[0] === 'FIGURE' && parts.length === 3 && /^\d{1,10}$/.test(parts[1]!)) {
      const size = Number(parts[1]);
      const name = parts[2]!;
      const mime = mimeOf(name);
      if (size > maxFigureBytes || pos + size > data.length || !NAME.test(name) || !mime) break;
      report.figures.push({
        name,
        mimeType: mime,
        base64: data.subarray(pos, pos + size).toString('base64'),
        bytes: size,
      });
      pos += size;
    } else {
      break;
    }
  }
  return report;
}
