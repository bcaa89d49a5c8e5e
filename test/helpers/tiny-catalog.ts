/** A droptimizer catalog of one raid boss dropping the given items (heroic only; facts fields as given). */
export function tinyCatalog(items: Array<{ id: number; name: string; slot: string; [fact: string]: unknown }>): string {
  const source = {
    kind: 'raid',
    difficulty: 'heroic',
    dropped: { bonusIds: [12793, 13334] },
    upgraded: { bonusIds: [12798, 13334] },
  };
  return JSON.stringify({
    format: 'simjob-droptimizer-catalog/1',
    season: 't',
    title: 'Tiny',
    instances: [
      {
        id: null,
        name: 'Vault of Tests',
        kind: 'raid',
        encounters: [
          { id: null, name: 'Boss', items: items.map((item) => ({ ...item, socket: false, sources: [source] })) },
        ],
      },
    ],
  });
}
