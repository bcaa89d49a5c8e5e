import { UsageError } from '../errors.js';

/**
 * Read a secret without echoing it: a prompt on stderr, keystrokes read in raw mode from the terminal.
 * Ctrl-C aborts (exit 130 through the caller), Backspace edits, Enter ends.
 */
export function readHidden(
  stdin: NodeJS.ReadStream,
  stderr: NodeJS.WritableStream,
  prompt: string,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    stderr.write(prompt);
    let value = '';
    const wasRaw = stdin.isRaw;
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const finish = (result: string | undefined) => {
      stdin.off('data', onData);
      stdin.setRawMode(wasRaw);
      stdin.pause();
      stderr.write('\n');
      resolve(result);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish(value);
        if (ch === '\u0003' || ch === '\u0004') return finish(undefined);
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** Read all of stdin as text (for `simjob login < key.txt`, a saved --json output on stdin). */
export async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  return (await readAllBytes(stdin)).toString('utf8');
}

/**
 * Read all of stdin as it came (for `submit -`, a webhook body to verify). Past `maxBytes` it stops reading and
 * throws `tooLarge()` (`< /dev/zero` must not fill the memory).
 */
export async function readAllBytes(
  stdin: NodeJS.ReadableStream,
  maxBytes = Infinity,
  tooLarge: () => Error = () => new Error(`stdin holds more than ${maxBytes} bytes`),
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += bytes.length;
    if (total > maxBytes) {
      (stdin as { destroy?: () => void }).destroy?.();
      throw tooLarge();
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/**
 * A secret typed at a hidden prompt on a terminal, or else the first non-blank line of stdin ('' when there is
 * none). Never from a flag value: flags end up in shell history and `ps`. Ctrl-C at the prompt throws `cancelled()`.
 */
export async function readSecretLine(
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
  prompt: string,
  cancelled: () => Error,
): Promise<string> {
  if (stdin.isTTY) {
    const value = await readHidden(stdin as NodeJS.ReadStream, process.stderr, prompt);
    if (value === undefined) throw cancelled();
    return value;
  }
  // A secret is one line: `login < /dev/zero` must not fill the memory.
  const bytes = await readAllBytes(
    stdin,
    64 * 1024,
    () => new UsageError('stdin holds more than 64 kB: a secret is one line.'),
  );
  return (
    bytes
      .toString('utf8')
      .split(/\r?\n/)
      .find((line) => line.trim() !== '') ?? ''
  );
}
