// Import cycles among the modules under src/: every strongly connected component of the import graph with more
// than one module (or a module importing itself). `import type` counts as an edge: a type-only import is erased
// at run time, but it still ties the two modules' code together, and the layering rule (docs/architecture.md:
// a lower layer never imports an upper one) is about what a module depends on, not only what it loads.
// `node --import tsx scripts/import-cycles.ts` prints the cycles and exits 1 when there are any.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Every .ts file under `dir`. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The relative module specifiers a file imports or re-exports (static and dynamic imports). */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((s) => s.startsWith('.'));
}

/** The .ts file a relative specifier names (NodeNext: `./x.js` is ./x.ts, a folder is never implied). */
function resolve(from: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(from), specifier);
  for (const candidate of [target.replace(/\.js$/, '.ts'), target, `${target}.ts`, path.join(target, 'index.ts')]) {
    if (candidate.endsWith('.ts') && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The import graph of src/: module → the src modules it imports (paths relative to `root`). */
export function importGraph(root: string): Map<string, string[]> {
  const src = path.join(root, 'src');
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const targets = specifiers(file).map((s) => resolve(file, s)).filter((t): t is string => t !== undefined && t.startsWith(src));
    graph.set(path.relative(root, file), [...new Set(targets.map((t) => path.relative(root, t)))]);
  }
  return graph;
}

/** The cycles of a graph: its strongly connected components of more than one node, or with a self edge (Tarjan). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string): void => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) connect(node);
  return cycles;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const cycles = importCycles(importGraph(root));
  for (const cycle of cycles) console.log(`cycle (${cycle.length} modules):\n  ${cycle.join('\n  ')}`);
  console.log(`${cycles.length} import cycle(s) in src/`);
  process.exitCode = cycles.length > 0 ? 1 : 0;
}
