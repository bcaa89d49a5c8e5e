import { UsageError } from '../../errors.js';
import { CAPS, readAllBytes, size } from '../../util/read-file.js';

/**
 * Read a secret without echoing it: a prompt on stderr, keystrokes read in raw mode from the terminal.
 * Ctrl-C aborts (exit 130 through the caller), Backspace edits, Enter ends.
 */
export function readHidden(
  stdin: NodeJS.ReadStream,
  stderr: { write(text: string): unknown },
  prompt: string,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    let value = '';
    const wasRaw = stdin.isRaw;
    // Raw before the prompt shows: a key typed as soon as it appears (Ctrl-C too) is read as a key, never echoed.
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    stderr.write(prompt);
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

/**
 * A secret typed at a hidden prompt on a terminal, or else the first non-blank line of stdin ('' when there is
 * none). Never from a flag value: flags end up in shell history and `ps`. Ctrl-C at the prompt throws `cancelled()`.
 */
export async function readSecretLine(
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
  stderr: { write(text: string): unknown },
  prompt: string,
  cancelled: () => Error,
): Promise<string> {
  if (stdin.isTTY) {
    const value = await readHidden(stdin as NodeJS.ReadStream, stderr, prompt);
    if (value === undefined) throw cancelled();
    return value;
  }
  // A secret is one line: `login < /dev/zero` must not fill the memory.
  const bytes = await readAllBytes(
    stdin,
    CAPS.secret.bytes,
    () => new UsageError(`stdin holds more than ${size(CAPS.secret.bytes)}: ${CAPS.secret.why}.`),
  );
  return (
    bytes
      .toString('utf8')
      .split(/\r?\n/)
      .find((line) => line.trim() !== '') ?? ''
  );
}
