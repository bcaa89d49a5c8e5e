/**
 * The shape of config.json and credentials.json (`{ "profiles": { "<name>": { ... } } }`) and reading a profile's
 * entry (no file access here).
 */
export type ProfileData = Record<string, unknown>;
export interface StoreFile {
  profiles?: Record<string, ProfileData>;
}

/** The profile's own entry only: a profile named `constructor` or `__proto__` must not read Object's members. */
export function profileOf(file: StoreFile, profile: string): ProfileData {
  const profiles = file.profiles;
  if (!profiles || typeof profiles !== 'object' || !Object.hasOwn(profiles, profile)) return {};
  const data = profiles[profile];
  return data && typeof data === 'object' && !Array.isArray(data) ? data : {};
}

/** Read a dotted key (`simc.nightly`) from a profile's nested settings. */
export function getPath(data: ProfileData, key: string): unknown {
  let node: unknown = data;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
