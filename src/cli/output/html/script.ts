/**
 * The page's one script (a progressive enhancement: without it every table is complete, in rank order). It makes
 * the headers of `table.sortable` sort buttons and adds a name filter above each. It reads only the page's own
 * cells through textContent and writes only textContent and attributes: never HTML.
 */
export const SCRIPT = `(() => {
  const number = (text) => {
    const n = parseFloat(text.replace(/,/g, '').replace(/\\u2212/g, '-'));
    return Number.isNaN(n) ? -Infinity : n;
  };
  document.querySelectorAll('table.sortable').forEach((table, t) => {
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const heads = Array.from(table.tHead.rows[0].cells);
    const nameColumn = heads.findIndex((th) => th.dataset.filter === 'name');
    heads.forEach((th, column) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = th.textContent;
      button.title = 'Sort by ' + th.textContent;
      th.textContent = '';
      th.append(button);
      if (!th.hasAttribute('aria-sort')) th.setAttribute('aria-sort', 'none');
      button.addEventListener('click', () => {
        const numeric = th.dataset.type === 'num';
        const now = th.getAttribute('aria-sort');
        const next = now === 'descending' ? 'ascending' : now === 'ascending' ? 'descending' : numeric ? 'descending' : 'ascending';
        heads.forEach((h) => h.setAttribute('aria-sort', 'none'));
        th.setAttribute('aria-sort', next);
        const sign = next === 'ascending' ? 1 : -1;
        const key = (row) => (numeric ? number(row.cells[column].textContent) : row.cells[column].textContent.toLowerCase());
        const keyed = rows.map((row) => [key(row), row]);
        keyed.sort((a, b) => (a[0] < b[0] ? -sign : a[0] > b[0] ? sign : 0));
        body.append(...keyed.map((k) => k[1]));
      });
    });
    if (nameColumn < 0) return;
    const controls = document.createElement('div');
    controls.className = 'controls';
    const label = document.createElement('label');
    label.textContent = 'Filter ';
    const input = document.createElement('input');
    input.type = 'search';
    input.id = 'filter-' + t;
    input.placeholder = 'name contains…';
    label.htmlFor = input.id;
    const count = document.createElement('span');
    count.setAttribute('aria-live', 'polite');
    const total = rows.filter((row) => !row.classList.contains('baseline')).length;
    const show = () => {
      const query = input.value.trim().toLowerCase();
      let shown = 0;
      rows.forEach((row) => {
        const keep = row.classList.contains('baseline') || !query || row.cells[nameColumn].textContent.toLowerCase().includes(query);
        row.hidden = !keep;
        if (keep && !row.classList.contains('baseline')) shown++;
      });
      count.textContent = query ? shown + ' of ' + total + ' shown' : total + ' in all';
    };
    input.addEventListener('input', show);
    controls.append(label, input, count);
    (table.closest('.table-wrap') || table).before(controls);
    show();
  });
})();`;
