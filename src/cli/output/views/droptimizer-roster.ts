/**
 * A roster's answer in the terminal: each character's best upgrade, then the matrix of the items that are an upgrade
 * for anyone (rows) by character (columns), each cell the item's Δ % in its best slot.
 */
import { rosterMatrix, type Roster, type RosterRow } from '../../../domain/droptimizer/roster.js';
import { signed } from '../../../util/format.js';
import type { Output } from '../io.js';
import { printTable, type Column } from '../table.js';
import { gainText } from './droptimizer.js';

export function printRoster(out: Output, roster: Roster): void {
  const c = out.c;
  const people: Array<Column<Roster['characters'][number]>> = [
    { header: 'Character', value: (r) => r.character },
    { header: 'Job', value: (r) => r.id ?? '' },
    { header: 'State', value: (r) => r.state },
    { header: 'Best upgrade', value: (r) => bestText(r), shrinkable: true },
  ];
  printTable(out, roster.characters, people);

  const matrix = rosterMatrix(roster);
  out.line();
  if (matrix.items.length === 0) {
    out.line(c.bold('Nothing in these sources beats what anyone wears.'));
    return;
  }
  out.line(c.bold('Upgrades by character (Δ % of each item in its best slot; blank: not simulated or culled):'));
  const names = roster.characters.map((r) => r.character);
  const noise = (text: string, row: RosterRow | undefined) => (row?.significant === false ? c.dim(text) : text);
  const columns: Array<Column<(typeof matrix.items)[number]>> = [
    { header: 'Item', value: (i) => i.itemName, shrinkable: true },
    { header: 'Source', value: (i) => i.source },
    ...names.map((name): Column<(typeof matrix.items)[number]> => ({
      header: name,
      value: (i) => cellText(matrix.cell(name, i.itemId)),
      align: 'right',
      style: (t, i) => noise(t, matrix.cell(name, i.itemId)),
    })),
  ];
  printTable(out, matrix.items, columns);
  out.notice(out.ce.dim('Grey cells are within the combined 95% error of the equipped set and the drop.'));
}

function cellText(row: RosterRow | undefined): string {
  if (!row) return '';
  return row.deltaPercent === null ? signed(row.deltaDps, 1) : `${signed(row.deltaPercent, 2)}%`;
}

function bestText(r: Roster['characters'][number]): string {
  const a = r.answer;
  if (!a) return '';
  if (!a.best || a.verdict === 'none') return 'nothing beats what is worn';
  const text = `${a.best.name}: ${gainText(a.best)}`;
  return a.verdict === 'within_error' ? `${text} (within the error)` : text;
}
