import { UsageError } from '../../errors.js';
import { writeFileReplacing } from '../../util/write-file.js';

/** Write the profile `-o` names (topgear, droptimizer, statweights), whole or not at all; a failure is one line. */
export async function writeProfileFile(file: string, text: string): Promise<void> {
  try {
    await writeFileReplacing(file, text);
  } catch (error) {
    throw new UsageError(
      `Cannot write ${file}: ${(error as Error).message}.`,
      'Check the folder exists and is writable.',
    );
  }
}
