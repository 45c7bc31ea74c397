#include "report/html_assets.h"

namespace stark::report {

const char* const kHtmlStyle = R"CSS(
:root {
  --bg: #f4f6f9; --card: #ffffff; --ink: #1c2330; --muted: #5d6878; --line: #dde3ea;
  --accent: #2563eb; --good: #16a34a; --warn: #d97706; --bad: #dc2626; --err: #9f1239;
  --invalid: #7c3aed; --root: #0f172a; --gold: #eab308;
  --mono: "DejaVu Sans Mono", ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 14px/1.5 "DejaVu Sans", system-ui, -apple-system, "Segoe UI", sans-serif; }
code, pre { font-family: var(--mono); font-size: 12.5px; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
header.top { background: linear-gradient(120deg, #0f172a 0%, #1e293b 60%, #1e3a8a 100%); color: #f8fafc;
  padding: 28px 40px 84px; }
header.top h1 { margin: 0; font-size: 24px; letter-spacing: .2px; }
header.top h1 .bolt { color: var(--gold); margin-right: 6px; }
header.top .meta { margin-top: 6px; color: #cbd5e1; font-size: 13px; }
header.top .meta span + span::before { content: "·"; margin: 0 8px; color: #64748b; }
main { max-width: 1180px; margin: -60px auto 40px; padding: 0 24px; }
.cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 14px; margin-bottom: 18px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 14px 18px;
  box-shadow: 0 1px 2px rgba(15, 23, 42, .06), 0 4px 14px rgba(15, 23, 42, .05); }
.cards .card .v { font-size: 26px; font-weight: 700; }
.cards .card .k { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .6px; }
.cards .card.hero .v { color: var(--good); }
table.summary { width: 100%; border-collapse: collapse; }
table.summary th { text-align: left; color: var(--muted); font-weight: 600; font-size: 12px;
  text-transform: uppercase; letter-spacing: .5px; padding: 6px 10px; border-bottom: 1px solid var(--line); }
table.summary td { padding: 9px 10px; border-bottom: 1px solid var(--line); vertical-align: middle; }
table.summary tr:last-child td { border-bottom: 0; }
table.summary td.num, table.summary th.num { text-align: right; font-variant-numeric: tabular-nums; }
.bar { display: inline-block; height: 8px; border-radius: 4px; background: var(--good); vertical-align: middle;
  margin-left: 8px; opacity: .8; }
.badge { display: inline-block; padding: 1px 9px; border-radius: 999px; font-size: 12px; font-weight: 600;
  border: 1px solid transparent; white-space: nowrap; }
.badge.improved { background: #dcfce7; color: #166534; border-color: #bbf7d0; }
.badge.no_gain { background: #f1f5f9; color: #475569; border-color: #e2e8f0; }
.badge.failed { background: #fee2e2; color: #991b1b; border-color: #fecaca; }
.badge.skipped, .badge.untimed { background: #f5f3ff; color: #5b21b6; border-color: #ede9fe; }
.badge.look { background: #fef3c7; color: #92400e; border-color: #fde68a; }
section.kernel { margin-top: 22px; }
section.kernel > .card { padding: 20px 24px; }
.khead { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.khead h2 { margin: 0; font-size: 20px; font-family: var(--mono); }
.khead .speed { margin-left: auto; font-size: 28px; font-weight: 800; color: var(--good); }
.khead .speed.flat { color: var(--muted); font-size: 20px; }
.kid { color: var(--muted); font-size: 12.5px; font-family: var(--mono); margin-top: 2px; }
.facts { display: grid; grid-template-columns: repeat(6, 1fr); gap: 10px; margin: 16px 0; }
.facts div { background: var(--bg); border-radius: 8px; padding: 8px 12px; }
.facts .k { display: block; color: var(--muted); font-size: 11px; text-transform: uppercase; letter-spacing: .5px; }
.facts .v { font-weight: 600; font-variant-numeric: tabular-nums; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0; }
.chip { display: inline-flex; align-items: center; gap: 6px; border-radius: 6px; padding: 2px 9px; font-size: 12.5px;
  border: 1px solid var(--line); background: #fff; }
.chip::before { content: ""; width: 8px; height: 8px; border-radius: 50%; background: currentColor; }
.chip.pass { color: #166534; border-color: #bbf7d0; background: #f0fdf4; }
.chip.fail { color: #991b1b; border-color: #fecaca; background: #fef2f2; }
.chip.notrun { color: #92400e; border-color: #fde68a; background: #fffbeb; }
.chip.strategy { color: #1e40af; border-color: #dbeafe; background: #eff6ff; }
.chip.strategy::before { display: none; }
.callout { border-left: 4px solid var(--warn); background: #fffbeb; padding: 8px 12px; border-radius: 6px;
  margin: 8px 0; font-size: 13px; }
.callout.info { border-color: var(--accent); background: #eff6ff; }
.callout b { margin-right: 6px; }
.label-row { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .5px;
  margin: 14px 0 4px; font-weight: 600; }
figure { margin: 0; background: #fbfcfe; border: 1px solid var(--line); border-radius: 10px; padding: 10px 12px; }
figure.treefig { margin-top: 14px; }
figcaption { color: var(--muted); font-size: 12px; margin-bottom: 6px; display: flex; flex-wrap: wrap;
  gap: 4px 12px; align-items: center; }
figcaption b { color: var(--ink); margin-right: auto; font-size: 13px; }
.viz { display: grid; grid-template-columns: 586px minmax(0, 1fr); gap: 16px; margin-top: 14px; align-items: start; }
.viz .panel { margin-top: 0; }
details.strategies { margin-top: 12px; }
details.strategies > summary { cursor: pointer; color: var(--muted); font-size: 12.5px; }
.treebox { overflow-x: auto; }
.legend { display: inline-flex; align-items: center; gap: 4px; }
.legend i { width: 10px; height: 10px; border-radius: 50%; display: inline-block; }
.legend i.dash { width: 16px; height: 0; border-radius: 0; border-top: 2px dashed var(--root); }
.legend i.line { width: 16px; height: 3px; border-radius: 2px; background: var(--accent); }
.legend.cross { color: var(--bad); font-weight: 700; }
svg text { font-family: "DejaVu Sans", sans-serif; }
svg .edge { fill: none; stroke: #c3ccd8; stroke-width: 1.5; }
svg .edge.best { stroke: var(--accent); stroke-width: 3.5; stroke-linecap: round; }
svg .node { cursor: pointer; outline: none; }
svg .node circle { stroke: #fff; stroke-width: 2; }
svg .node text.id { fill: #fff; font-size: 9px; font-weight: 700; text-anchor: middle; pointer-events: none; }
svg .node text.label { fill: var(--muted); font-size: 9.5px; text-anchor: middle; pointer-events: none; }
svg .node.best text.label { fill: var(--accent); font-weight: 700; }
svg .node.best circle { stroke: var(--accent); stroke-width: 2.5; }
svg .node circle.ring { fill: none; stroke: var(--gold); stroke-width: 3; }
svg .node.selected circle:not(.ring) { stroke: var(--ink); stroke-width: 3; }
.st-root, svg .st-root circle { fill: var(--root); background: var(--root); }
.st-accepted, svg .st-accepted circle { fill: var(--good); background: var(--good); }
.st-rejected, svg .st-rejected circle { fill: var(--warn); background: var(--warn); }
.st-compile_error, svg .st-compile_error circle { fill: var(--bad); background: var(--bad); }
.st-error, .st-timeout, .st-crash, svg .st-error circle, svg .st-timeout circle, svg .st-crash circle {
  fill: var(--err); background: var(--err); }
.st-invalid, svg .st-invalid circle { fill: var(--invalid); background: var(--invalid); }
svg .grid { stroke: #e7ecf2; }
svg .tick { fill: var(--muted); font-size: 10.5px; }
svg .axis { fill: var(--muted); font-size: 11px; }
svg .baseline { stroke: var(--root); stroke-dasharray: 5 4; stroke-width: 1.3; }
svg .best-line { fill: none; stroke: var(--accent); stroke-width: 2; opacity: .85; }
svg .mark { cursor: pointer; outline: none; }
svg .mark circle { fill: var(--good); stroke: #fff; stroke-width: 1.5; }
svg .mark.winner circle { fill: var(--accent); stroke: var(--gold); stroke-width: 3; }
svg .mark circle.untimed { fill: none; stroke: var(--muted); stroke-width: 2; }
svg .mark path { stroke: var(--bad); stroke-width: 2; fill: none; stroke-linecap: round; }
svg .mark.st-rejected path { stroke: var(--warn); }
svg .mark.st-invalid path { stroke: var(--invalid); }
svg .mark.selected circle { stroke: var(--ink); stroke-width: 3; }
svg .mark.selected path { stroke-width: 3.5; }
.panel { margin-top: 14px; border: 1px solid var(--line); border-radius: 10px; padding: 12px 16px; background: #fff; }
.panel .ph { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
.panel .pill { color: #fff; border-radius: 999px; padding: 0 9px; font-size: 12px; font-weight: 600; }
.panel .strategy { margin-top: 4px; }
.panel pre { background: #0f172a; color: #e2e8f0; border-radius: 8px; padding: 10px 12px; overflow-x: auto;
  margin: 8px 0 0; max-height: 320px; }
.panel pre.diag { background: #fef2f2; color: #7f1d1d; }
.panel .muted, .muted { color: var(--muted); }
details.diff { margin-top: 16px; }
details.diff > summary { cursor: pointer; font-weight: 600; padding: 6px 0; }
details.diff > summary .plus { color: var(--good); margin-left: 8px; }
details.diff > summary .minus { color: var(--bad); margin-left: 4px; }
pre.diff { background: #0d1117; color: #c9d1d9; border-radius: 10px; padding: 10px 0; overflow-x: auto; margin: 6px 0 0; }
pre.diff .dl { display: block; padding: 0 14px; min-height: 1.5em; white-space: pre; }
pre.diff .dl.add { background: rgba(46, 160, 67, .18); }
pre.diff .dl.del { background: rgba(248, 81, 73, .17); }
pre.diff .dl.hunk { color: #79c0ff; background: rgba(56, 139, 253, .12); }
pre.diff .dl.file { color: #8b949e; font-weight: 700; }
pre.diff .dl.meta { color: #8b949e; font-style: italic; }
pre.diff .mark { display: inline-block; width: 1.4em; color: #8b949e; user-select: none; }
pre.diff .add .mark { color: #3fb950; }
pre.diff .del .mark { color: #f85149; }
.tok-kw { color: #ff7b72; } .tok-type { color: #79c0ff; } .tok-num { color: #a5d6ff; }
.tok-str { color: #a5d6ff; } .tok-comment { color: #8b949e; font-style: italic; } .tok-pre { color: #ffa657; }
.tok-fn { color: #d2a8ff; }
.warnings { margin-top: 18px; }
footer { color: var(--muted); font-size: 12px; text-align: center; margin: 30px 0 10px; }
@media (max-width: 1000px) { .viz { grid-template-columns: 1fr; } .facts { grid-template-columns: repeat(3, 1fr); }
  .cards { grid-template-columns: repeat(2, 1fr); } }
)CSS";

const char* const kHtmlScript = R"JS(
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("stark-data").textContent);

  function time(us) {
    if (us === null || us === undefined) return "—";
    function sig(v) { var a = Math.abs(v); return v.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3); }
    if (us >= 1e6) return sig(us / 1e6) + " s";
    if (us >= 1e3) return sig(us / 1e3) + " ms";
    return sig(us) + " µs";
  }
  function speedup(s) { return s.toFixed(s >= 10 ? 1 : 2) + "×"; }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function statusClass(s) { return "st-" + String(s).toLowerCase().replace(/[^a-z0-9_-]/g, ""); }

  function select(k, id) {
    var kernel = data.kernels[k];
    var node = null;
    for (var i = 0; i < kernel.nodes.length; i++) if (kernel.nodes[i].id === id) node = kernel.nodes[i];
    if (!node) return;
    document.querySelectorAll('[data-k="' + k + '"][data-node]').forEach(function (e) {
      e.classList.toggle("selected", Number(e.getAttribute("data-node")) === id);
    });
    var panel = document.querySelector('.panel[data-k="' + k + '"]');
    if (!panel) return;
    panel.textContent = "";
    var head = el("div", "ph");
    var root = node.parent === null;
    head.appendChild(el("span", "pill " + (root ? "st-root" : statusClass(node.status)), root ? "original" : node.status));
    head.appendChild(el("b", "", "node #" + node.id));
    head.appendChild(el("span", "muted", node.role));
    if (node.time_us !== null) {
      var t = time(node.time_us);
      if (!root && kernel.baseline_us) t += " · " + speedup(kernel.baseline_us / node.time_us) + " vs original";
      head.appendChild(el("span", "", t));
    }
    if (node.id === kernel.best) head.appendChild(el("span", "badge improved", "winner"));
    panel.appendChild(head);
    if (node.strategy) panel.appendChild(el("div", "strategy", node.strategy));
    if (node.grounding) panel.appendChild(el("div", "muted", node.grounding));
    if (node.profile) panel.appendChild(el("div", "muted", "profile: " + node.profile));
    if (node.launch) panel.appendChild(el("div", "muted", "launch: " + node.launch));
    if (node.diagnostics) panel.appendChild(el("pre", "diag", node.diagnostics));
    if (node.source) {
      var d = el("details");
      if (node.id === kernel.best) d.open = true;
      d.appendChild(el("summary", "muted", root ? "original source" : "variant source"));
      d.appendChild(el("pre", "", node.source));
      panel.appendChild(d);
    }
  }

  document.querySelectorAll("[data-node]").forEach(function (e) {
    var pick = function () { select(Number(e.getAttribute("data-k")), Number(e.getAttribute("data-node"))); };
    e.addEventListener("click", pick);
    e.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") pick(); });
  });
  data.kernels.forEach(function (kernel, k) {
    if (!kernel.nodes.length) return;
    select(k, kernel.best !== null ? kernel.best : kernel.nodes[0].id);
  });
  document.documentElement.setAttribute("data-stark-ready", "yes");
})();
)JS";

}  // namespace stark::report
