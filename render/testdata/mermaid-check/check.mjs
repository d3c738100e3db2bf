// Manual check, not run by go test: parses every render/testdata/*.mmd.golden
// and conformance/testdata/render/*.mmd (and *.mmd.golden) with Mermaid itself (in Node, jsdom standing in for the browser) and checks
// that each state, transition and note the file declares arrives in Mermaid's
// model — a keyword identifier can parse yet vanish (`acctitle: T` becomes the
// accessible title, `root_start` merges with `[*]`).
//
//   cd render/testdata/mermaid-check && npm install && npm run check
//   npm run probe   # re-derive the identifiers that break Mermaid (mmReserved)
//
// Exit 0 when every golden passes; 1 otherwise. The model checks need
// Mermaid 11: Mermaid 10 fills its model only when it renders.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
globalThis.DOMParser = dom.window.DOMParser;
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

// model parses src and returns Mermaid's states and relations, or throws.
async function model(src) {
  const d = await mermaid.mermaidAPI.getDiagramFromText(src);
  const st = d.db.getStates(); // a Map in Mermaid 11, a plain object in Mermaid 10
  return { states: st instanceof Map ? st : new Map(Object.entries(st)), relations: d.db.getRelations() };
}

// problems compares what the golden declares with what Mermaid read.
async function problems(src) {
  let m;
  try { m = await model(src); } catch (e) { return [String(e.message).split('\n').slice(0, 3).join(' | ')]; }
  const out = [];
  const lines = src.split('\n');
  let arrows = 0;
  for (const line of lines) {
    let g;
    if ((g = /^    ([A-Za-z0-9_]+)(?:: (.*))?$/.exec(line))) {
      const s = m.states.get(g[1]);
      if (!s) out.push(`state ${g[1]} missing`);
      else if (g[2] !== undefined && !s.descriptions.includes(g[2].split(';')[0].trim())) out.push(`state ${g[1]} lost its title`);
    } else if (/^    \S+ --> \S+/.test(line)) {
      arrows++;
    } else if ((g = /^    note (?:left|right) of (\S+)$/.exec(line))) {
      if (!m.states.get(g[1])?.note) out.push(`note of ${g[1]} missing`);
    }
  }
  if (m.relations.length !== arrows) out.push(`${arrows} arrows, Mermaid read ${m.relations.length}`);
  for (const [id, s] of m.states) {
    if (/^root_(start|end)$/.test(id) && s.descriptions.length > 0) out.push(`state ${id} merged with [*]`);
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

if (process.argv.includes('--probe')) {
  await probe();
} else {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
  // The end-to-end suite's Mermaid goldens (the corpus workflow's among
  // them) live under conformance/testdata/render.
  const conf = join(dir, '..', '..', 'conformance', 'testdata', 'render');
  const files = [
    ...readdirSync(dir).filter((f) => f.endsWith('.mmd.golden')).sort().map((f) => [f, join(dir, f)]),
    ...readdirSync(conf).filter((f) => f.endsWith('.mmd') || f.endsWith('.mmd.golden')).sort().map((f) => ['conformance/' + f, join(conf, f)]),
  ];
  // known: goldens that fail for a reason of their labels, not of their
  // identifiers (docs/decisions.md "Mermaid identifiers", labels).
  const known = {};
  let bad = 0, n = 0, hit = 0;
  for (const [f, path] of files) {
    n++;
    const p = await problems(readFileSync(path, 'utf8'));
    if (p.length && known[f]) {
      hit++;
      console.log(`KNOWN ${f}: ${known[f]} (${p.join('; ')})`);
      continue;
    }
    console.log(`${p.length ? 'FAIL' : 'ok  '} ${f}${p.length ? ': ' + p.join('; ') : ''}${known[f] ? ' (listed as known: remove it)' : ''}`);
    if (p.length) bad++;
  }
  console.log(`${n - bad - hit} passed, ${bad} failed, ${hit} known`);
  process.exitCode = bad ? 1 : 0;
}
