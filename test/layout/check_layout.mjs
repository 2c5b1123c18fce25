// The rules of docs/ARCHITECTURE.md "What may include what", checked on the
// tree: folders by job, includes that run one way (a folder includes only its
// own files and folders of a lower layer), no circle between files or
// between folders (a file using a function of another that uses one of its
// own, read from the built objects with nm), the table reader's state seen
// only by its files, PostgreSQL-free format layer apart from
// palloc/ereport, a comment naming each file and its job, no file over 1,000
// lines.  Prints one line per violation and "layout: N passed, N failed".
//
//   node test/layout/check_layout.mjs        (after make: needs the .o files)
import fs from 'fs';
import path from 'path';
import {execFileSync} from 'child_process';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
process.chdir(root);

// Layers, lowest first; folders of one layer may not include each other.
const LAYERS = [
	['format/common'],
	['format/thrift'],
	['format/metadata'],
	['format/codec', 'format/encoding', 'format/crypto'],
	['format/json'],
	['format/variant'],
	['format/read', 'format/write'],
	['table/common'],
	['table/delta', 'table/iceberg'],
	['io/common'],
	['io/http'],
	['io/aws', 'io/azure'],
	['io/store'],
	['fdw/remote'],
	['fdw/keys'],
	['fdw/table'],
	['fdw/common'],
	['fdw/convert'],
	['fdw/dataset'],
	['fdw/prune'],
	['fdw/scan'],
	['fdw/pushdown'],
	['fdw/plan', 'fdw/copy', 'fdw/inspect'],
	['fdw'],
];
// What the format and transport (io/) layers may take from PostgreSQL
// (DESIGN.md: palloc and ereport, plus two self-contained helpers); varatt.h
// is the part of postgres.h that PostgreSQL 16 moved out.
const FORMAT_PG = new Set(['postgres.h', 'varatt.h', 'utils/memutils.h',
	'lib/stringinfo.h', 'common/shortest_dec.h']);
const MAX_LINES = 1000;

const rank = new Map();
LAYERS.forEach((l, i) => l.forEach(f => rank.set(f, i)));

function walk(d, out = []) {
	for (const e of fs.readdirSync(d, {withFileTypes: true})) {
		const p = path.join(d, e.name);
		if (e.isDirectory()) walk(p, out);
		else out.push(p);
	}
	return out;
}

const problems = [];
let checks = 0;
function check(ok, msg) {
	checks++;
	if (!ok) problems.push(msg);
}

const sources = walk('src').filter(f => /\.[ch]$/.test(f));
const folderOf = f => path.dirname(path.relative('src', f));

for (const f of sources) {
	const folder = folderOf(f);
	const text = fs.readFileSync(f, 'utf8');
	const lines = text.split('\n');
	check(rank.has(folder), `${f}: folder ${folder} is not in a layer (add it to LAYERS and docs/ARCHITECTURE.md)`);
	// the transport sits beside the format layer: neither uses the other
	if (folder.startsWith('io/'))
		check(!/^#include\s+"(format|table)\//m.test(text), `${f}: the transport includes the format or table layer`);
	if (folder.startsWith('table/'))
		check(!/^#include\s+"io\//m.test(text), `${f}: the table-format layer includes the transport`);
	check(lines[2] === ` * ${path.basename(f)}` && /^ \*\s+\S/.test(lines[3] || ''),
		`${f}: the first comment must name the file and say its job`);
	check(lines.length <= MAX_LINES + 1, `${f}: ${lines.length - 1} lines (over ${MAX_LINES}: split it by job)`);
	for (const m of text.matchAll(/^#include\s+"([^"]+)"/gm)) {
		const inc = m[1];
		const own = ['format/', 'table/', 'io/', 'fdw/'].some(p => inc.startsWith(p));
		if (!own) {
			check(!fs.existsSync(path.join(path.dirname(f), inc)),
				`${f}: includes "${inc}" without its folder (write "format/...", "io/..." or "fdw/...")`);
			if (folder.startsWith('format') || folder.startsWith('table/') || folder.startsWith('io/'))
				check(FORMAT_PG.has(inc), `${f}: the ${folder.split('/')[0]} layer includes PostgreSQL's "${inc}"`);
			continue;
		}
		check(fs.existsSync(path.join('src', inc)), `${f}: includes "${inc}", which does not exist`);
		const to = path.dirname(inc);
		if (to === folder || !rank.has(folder) || !rank.has(to))
			continue;
		check(rank.get(to) < rank.get(folder),
			`${f}: includes "${inc}": ${folder} may include only folders of lower layers`);
	}
}

// Circles between files and between folders, at the level of functions and
// data: nm on the objects.  A strongly connected component of more than one
// file (folder) is a circle.
const objects = sources.filter(f => f.endsWith('.c')).map(f => f.replace(/\.c$/, '.o'));
const missing = objects.filter(o => !fs.existsSync(o));
check(missing.length === 0, `objects missing (run make first): ${missing.slice(0, 3).join(' ')}`);
if (missing.length === 0) {
	const defs = new Map();
	const uses = new Map();
	for (const o of objects) {
		uses.set(o, []);
		for (const line of execFileSync('nm', [o]).toString().split('\n')) {
			const m = line.trim().match(/^(?:[0-9a-f]+\s+)?([A-Za-z])\s+(\S+)$/);
			if (!m)
				continue;
			if (m[1] === 'U')
				uses.get(o).push(m[2]);
			else if ('TDBR'.includes(m[1]))
				defs.set(m[2], o);
		}
	}
	const edges = new Map(objects.map(o => [o, new Map()]));
	for (const [o, syms] of uses)
		for (const s of syms) {
			const d = defs.get(s);
			if (d && d !== o)
				edges.get(o).set(d, s);
		}
	// Circles between files, and between folders (a folder's files using
	// functions of another folder whose files use functions of the first).
	const folderOfObject = o => folderOf(o.replace(/\.o$/, '.c'));
	const folderEdges = new Map();
	for (const [a, out] of edges)
		for (const [b, s] of out) {
			const fa = folderOfObject(a), fb = folderOfObject(b);
			if (fa === fb)
				continue;
			if (!folderEdges.has(fa))
				folderEdges.set(fa, new Map());
			if (!folderEdges.has(fb))
				folderEdges.set(fb, new Map());
			folderEdges.get(fa).set(fb, `${a} uses ${s} of ${b}`);
		}
	for (const [what, graph] of [['files', edges], ['folders', folderEdges]])
		for (const comp of components(graph)) {
			checks++;
			if (comp.length > 1) {
				const why = [];
				for (const a of comp)
					for (const [b, s] of graph.get(a))
						if (comp.includes(b))
							why.push(what === 'files' ? `${a} uses ${s} of ${b}` : s);
				problems.push(`circle between ${what} ${comp.join(', ')}: ${why.join('; ')}`);
			}
		}
}

// postgres.h first in every C file that includes anything of PostgreSQL's,
// then system headers, then the others in name order (PostgreSQL's style).
for (const f of sources) {
	const lines = fs.readFileSync(f, 'utf8').split('\n');
	const first = lines.findIndex(l => l.startsWith('#include'));
	if (first < 0)
		continue;
	let end = first;
	while (end < lines.length && (lines[end].startsWith('#include') || lines[end].trim() === ''))
		end++;
	const incs = lines.slice(first, end).filter(l => l.startsWith('#include')).map(l => l.split(/\s+/)[1]);
	if (f.endsWith('.c'))
		check(incs[0] === '"postgres.h"', `${f}: postgres.h must be the first include`);
	const quoted = incs.filter(i => i.startsWith('"') && i !== '"postgres.h"').map(i => i.slice(1, -1));
	const sorted = [...quoted].sort();
	check(quoted.every((q, i) => q === sorted[i]),
		`${f}: includes out of order (${quoted.find((q, i) => q !== sorted[i])}); sort them by name`);
}

// The table reader's state is private to its files.
for (const f of sources) {
	const text = fs.readFileSync(f, 'utf8');
	if (/^#include\s+"fdw\/scan\/table_reader_state\.h"/m.test(text))
		check(/^src\/fdw\/scan\/table_reader[a-z_]*\.[ch]$/.test(f),
			`${f}: includes the table reader's private state (use batch.h and table_reader.h)`);
}

// Strongly connected components of a graph (Map node -> Map of next nodes).
function components(graph) {
	let counter = 0;
	const index = new Map(), low = new Map(), stack = [], onStack = new Set();
	const out = [];
	const strong = v => {
		index.set(v, counter);
		low.set(v, counter++);
		stack.push(v);
		onStack.add(v);
		for (const w of graph.get(v).keys()) {
			if (!index.has(w)) {
				strong(w);
				low.set(v, Math.min(low.get(v), low.get(w)));
			} else if (onStack.has(w))
				low.set(v, Math.min(low.get(v), index.get(w)));
		}
		if (low.get(v) === index.get(v)) {
			const comp = [];
			let w;
			do {
				w = stack.pop();
				onStack.delete(w);
				comp.push(w);
			} while (w !== v);
			out.push(comp);
		}
	};
	for (const v of graph.keys())
		if (!index.has(v))
			strong(v);
	return out;
}

for (const p of problems)
	console.log(`layout: ${p}`);
console.log(`layout: ${checks - problems.length} passed, ${problems.length} failed`);
process.exit(problems.length ? 1 : 0);
