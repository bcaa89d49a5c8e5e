/** The page's one stylesheet, inlined: system fonts only, light and dark, and a print layout. */
export const STYLE = `
:root{--fg:#1d2430;--muted:#5b6575;--bg:#fff;--panel:#f5f7fa;--line:#d9dee7;--better:#2f7d4f;--worse:#b8452b;--same:#8a94a3;--ref:#2b5fb8;--accent:#2b5fb8;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--fg:#e4e8ef;--muted:#9aa5b5;--bg:#14171c;--panel:#1d2128;--line:#353b46;--better:#5fbf86;--worse:#ef7d61;--same:#7d8796;--ref:#79a6f2;--accent:#79a6f2}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1100px;margin:0 auto;padding:24px 20px 48px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 8px;padding-top:8px;border-top:1px solid var(--line)}h3{font-size:16px;margin:20px 0 6px}
.sub,.caption,figcaption,footer{color:var(--muted)}
.sub{margin:0 0 16px}
.synthetic{margin:0 0 16px;padding:10px 16px;border:2px solid var(--worse);border-radius:6px;background:var(--panel);color:var(--worse);font-size:15px}
a{color:var(--accent)}
.headline{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:12px 0;padding:12px 16px;background:var(--panel);border-radius:6px}
.headline dt{color:var(--muted)}.headline dd{margin:0;overflow-wrap:anywhere}
.dps{font-size:22px;font-weight:600}
.status-completed{color:var(--better)}.status-failed,.status-timed_out,.status-cancelled{color:var(--worse)}
.answer{margin:12px 0;padding:10px 16px;border-left:4px solid var(--accent);background:var(--panel)}.answer p{margin:4px 0;overflow-wrap:anywhere}
.answer-headline{font-size:16px}
.outcome{padding:10px 14px;border-left:4px solid var(--worse);background:var(--panel)}
figure{margin:12px 0;overflow-x:auto}
.chart{display:block;width:100%;min-width:640px;height:auto;font:12px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
.chart text{fill:var(--fg)}.chart .tick{fill:var(--muted)}
.chart .grid{stroke:var(--line);stroke-width:1}
.chart .row .bar{fill:var(--same)}
.chart .row.better .bar{fill:var(--better)}.chart .row.worse .bar{fill:var(--worse)}
.chart .row.reference .bar{fill:url(#hatch);stroke:var(--ref);stroke-width:1.5}
.chart .row.reference .label,.chart .row.reference .note{font-weight:600}
.chart .err{stroke:var(--fg);stroke-width:1.3;fill:none}
.chart .note{fill:var(--muted)}.chart .row.better .note{fill:var(--better)}.chart .row.worse .note{fill:var(--worse)}
.chart .ref-line{stroke:var(--ref);stroke-width:1.5;stroke-dasharray:5 4}
.chart .ref-label{fill:var(--ref);font-weight:600}
.chart .band{fill:var(--accent);opacity:.22}.chart .line{fill:none;stroke:var(--accent);stroke-width:1.6}
.chart .shown{fill:var(--panel);stroke:var(--line)}
.chart .stage{fill:var(--accent);opacity:.85}
pre.pawn{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--panel);padding:8px;border-radius:4px}
.legend{display:flex;flex-wrap:wrap;gap:4px 18px;margin:4px 0;color:var(--muted);font-size:13px}
.swatch{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:-1px;border-radius:2px}
.swatch.better{background:var(--better)}.swatch.worse{background:var(--worse)}.swatch.same{background:var(--same)}
.swatch.reference{border:1.5px solid var(--ref);background:repeating-linear-gradient(45deg,var(--ref) 0 2px,transparent 2px 5px)}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th{position:sticky;top:0;background:var(--bg);font-weight:600}
th.text,td.text{text-align:left;white-space:normal;overflow-wrap:break-word;min-width:9ch}
tr.baseline td{font-weight:600;background:var(--panel)}
td.better{color:var(--better)}td.worse{color:var(--worse)}td.same{color:var(--muted)}
th button{font:inherit;color:inherit;background:none;border:0;padding:0;cursor:pointer;text-decoration:underline dotted}
th[aria-sort=ascending] button::after{content:" ▲"}th[aria-sort=descending] button::after{content:" ▼"}
.controls{display:flex;gap:12px;align-items:center;margin:8px 0}
.controls input{font:inherit;padding:4px 8px;min-width:260px;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:4px}
.table-wrap{border:1px solid var(--line);border-radius:6px;overflow-x:auto}.table-wrap.tall{max-height:75vh;overflow:auto}
.matrix td,.matrix th{text-align:right}.matrix th.text{text-align:left}
td.nowrap{white-space:nowrap}
footer{margin-top:40px;font-size:12px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
@media print{
:root{--fg:#000;--muted:#444;--bg:#fff;--panel:#f2f2f2;--line:#bbb;color-scheme:light}
main{max-width:none;padding:0}
.controls{display:none}
.table-wrap,.table-wrap.tall{max-height:none;overflow:visible;border:0}
th{position:static}
figure,.headline,tr{break-inside:avoid}
figure{overflow:visible}.chart{min-width:0}
h2,h3{break-after:avoid}
a{color:inherit;text-decoration:none}
}
`.trim();
