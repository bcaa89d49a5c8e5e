import { readdirSync } from 'node:fs';

/** The names in a folder, or none when it cannot be read (missing, not a folder): for lists where absent is empty. */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
