// CI check, run by .ci/run: every Mermaid diagram aepflow writes or shows —
// the render goldens (render/testdata/*.mmd.golden, and the corpus goldens
// and outputs of conformance/testdata/render), the examples
// (examples/**/*.mmd) and the ```mermaid blocks of the Markdown pages — is
// parsed and rendered with Mermaid itself (in Node, jsdom standing in for
// the browser), and checked twice:
//
//   model:  every state, title, arrow and note the file declares arrives in
//           Mermaid's model (a keyword identifier can parse yet vanish:
//           `acctitle: T` becomes the accessible title, `root_start` merges
//           with `[*]`);
//   render: every state title, guard and note line is shown as written,
//           entity codes decoded (`#gt;` shows `>`): so `failed #gt; 0`
//           must show `failed > 0`, not `failed   0`.
//
//   cd .ci/mermaid && npm ci && npm run check   # what .ci/run does
//   npm run probe   # re-derive the identifiers that break Mermaid (render.mmReserved)
//
// Exit 0 when every diagram passes; 1 otherwise. The package versions are
// pinned by package-lock.json.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true });
for (const k of ['window', 'document', 'DOMParser', 'CSSStyleSheet', 'Element', 'HTMLElement', 'SVGElement', 'Node', 'MutationObserver']) {
  const v = k === 'window' ? dom.window : dom.window[k];
  if (v !== undefined && globalThis[k] === undefined) globalThis[k] = v;
}
// jsdom lays nothing out: give SVG text a size so that Mermaid's layout runs.
dom.window.SVGElement.prototype.getBBox = function () {
  return { x: 0, y: 0, width: 8 * (this.textContent || '').length, height: 16 };
};
dom.window.SVGElement.prototype.getComputedTextLength = function () { return 8 * (this.textContent || '').length; };
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

// encoded is a label as Mermaid's model holds it: entity codes replaced by
// its placeholders (encodeEntities in Mermaid's sources).
function encoded(text) {
  return text.replace(/#\w+;/g, (s) => {
    const inner = s.slice(1, -1);
    return (/^\+?\d+$/.test(inner) ? '\uFB02\xB0\xB0' : '\uFB02\xB0') + inner + '\xB6\xDF';
  });
}

const named = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };

// shown is a label as a reader sees it: entity codes decoded.
function shown(text) {
  return text.replace(/#(\w+);/g, (s, inner) => {
    if (/^\d+$/.test(inner)) return String.fromCodePoint(Number(inner));
    return named[inner] ?? s;
  });
}

// declared lists what a diagram's lines declare, in aepflow's layout.
function declared(src) {
  const out = { states: [], arrows: [], notes: [], labels: [] };
  let inNote = false;
  for (const line of src.split('\n')) {
    let g;
    if (inNote) {
      if (line.trim() === 'end note') inNote = false;
      else if (line.trim() !== '') out.labels.push(line.trim());
    } else if ((g = /^    note (?:left|right) of (\S+)$/.exec(line))) {
      out.notes.push(g[1]);
      inNote = true;
    } else if ((g = /^    (\S+) --> (\S+?)(?:: (.*))?$/.exec(line))) {
      out.arrows.push(g);
      if (g[3]) out.labels.push(g[3]);
    } else if ((g = /^    ([A-Za-z0-9_]+)(?:: (.*))?$/.exec(line)) && !/^(direction|classDef|class)$/.test(g[1])) {
      out.states.push([g[1], g[2]]);
      if (g[2]) out.labels.push(g[2]);
    }
  }
  return out;
}

let renders = 0;

// problems parses and renders src and lists what did not survive.
async function problems(src) {
  const want = declared(src);
  let d;
  try { d = await mermaid.mermaidAPI.getDiagramFromText(src); } catch (e) { return ['parse: ' + String(e.message).split('\n').slice(0, 3).join(' | ')]; }
  const raw = d.db.getStates(); // a Map in Mermaid 11, a plain object in Mermaid 10
  const states = raw instanceof Map ? raw : new Map(Object.entries(raw));
  const relations = d.db.getRelations();
  const out = [];
  for (const [id, title] of want.states) {
    const s = states.get(id);
    if (!s) out.push(`state ${id} missing`);
    else if (title !== undefined && !s.descriptions.includes(encoded(title).trim())) out.push(`state ${id} lost its title`);
  }
  for (const id of want.notes) if (!states.get(id)?.note) out.push(`note of ${id} missing`);
  if (relations.length !== want.arrows.length) out.push(`${want.arrows.length} arrows, Mermaid read ${relations.length}`);
  for (const [id, s] of states) {
    if (/^root_(start|end)$/.test(id) && s.descriptions.length > 0) out.push(`state ${id} merged with [*]`);
  }
  let svg;
  try { ({ svg } = await mermaid.render(`d${renders++}`, src)); } catch (e) { return [...out, 'render: ' + String(e.message).split('\n')[0]]; }
  const doc = new JSDOM(svg).window.document;
  const texts = new Set([...doc.querySelectorAll('.edgeLabel, .nodeLabel, text, tspan, span, p')].map((e) => e.textContent.trim()));
  const text = doc.documentElement.textContent;
  for (const label of want.labels) {
    const s = shown(label).trim();
    if (!texts.has(s) && !text.includes(s)) out.push(`shows ${JSON.stringify(s)} nowhere`);
  }
  return out;
}

// probe prints, for each candidate word, whether a state so named survives.
async function probe() {
  const words = `accDescr accTitle as choice class classDef click default description direction empty end fork hide
    href join left note of right root root_end root_start scale state stateDiagram style width 1 1a _ __`.split(/\s+/).filter(Boolean);
  for (const w of words) {
    const src = `stateDiagram-v2\n    direction TB\n    ${w}: T\n    a: A\n    [*] --> ${w}\n    a --> ${w}: g\n` +
      `    ${w} --> a\n    ${w} --> [*]\n    note right of ${w}\n        needs x\n    end note\n` +
      `    classDef visited fill:#e5e7eb\n    class a, ${w} visited\n`;
    const p = await problems(src);
    console.log(`${w.padEnd(14)} ${p.length ? 'BREAKS: ' + p.join('; ') : 'ok'}`);
  }
}

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// walk lists the files under dir (dot entries and node_modules skipped).
function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

// diagrams lists [name, source] for every Mermaid diagram of the repository.
function diagrams() {
  const out = [];
  // Goldens are *.mmd.golden (render/testdata, and the corpus workflow's in
  // conformance/testdata/render); examples and the end-to-end suite's
  // outputs are *.mmd.
  for (const f of walk(repo)) {
    const rel = relative(repo, f);
    if (f.endsWith('.mmd') || f.endsWith('.mmd.golden')) out.push([rel, readFileSync(f, 'utf8')]);
    if (f.endsWith('.md')) {
      const blocks = readFileSync(f, 'utf8').split(/^```mermaid\n/m).slice(1);
      blocks.forEach((b, i) => out.push([`${rel} (block ${i + 1})`, b.split(/^```$/m)[0]]));
    }
  }
  return out;
}

if (process.argv.includes('--probe')) {
  await probe();
} else {
  let bad = 0;
  const all = diagrams();
  for (const [name, src] of all) {
    const p = await problems(src);
    console.log(`${p.length ? 'FAIL' : 'ok  '} ${name}${p.length ? ': ' + p.join('; ') : ''}`);
    if (p.length) bad++;
  }
  const version = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'node_modules', 'mermaid', 'package.json'), 'utf8')).version;
  console.log(`${all.length - bad} of ${all.length} Mermaid diagrams parse and show what they say (Mermaid ${version})`);
  process.exitCode = bad ? 1 : 0;
}
