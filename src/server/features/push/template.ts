// The provider's push templates are Handlebars rendering JSON: `{{ message.text }}`,
// `{{ truncate message.text 200 }}`, `{{{ json_encode channel }}}`, `{{#if}}`, `{{#unless}}`,
// `{{#each}}` with `this` and `@index`. This is that subset. `{{ }}` escapes for a JSON string
// (the templates are JSON, so a quote in a message must not end the string), `{{{ }}}` does not.
// Campaign messages use the same language for plain text, so the escaping can be chosen.
export class TemplateError extends Error {
  override readonly name = 'TemplateError';
}

type Expr = { name: string; args: Arg[] };
type Arg = { path: string } | { literal: string | number };
type Node =
  | { kind: 'text'; text: string }
  | { kind: 'value'; expr: Expr; raw: boolean }
  | { kind: 'block'; helper: 'if' | 'unless' | 'each'; expr: Expr; body: Node[]; otherwise: Node[] };

type Scope = { value: unknown; root: unknown; index?: number; count?: number };

const HELPERS: Record<string, (...args: unknown[]) => unknown> = {
  truncate: (value, length) => {
    const text = stringOf(value);
    const max = typeof length === 'number' ? length : Number(length);
    return Number.isInteger(max) && max >= 0 && text.length > max ? `${text.slice(0, max)}...` : text;
  },
  json_encode: (value) => JSON.stringify(value ?? null),
  implodeMembers: (members) =>
    Array.isArray(members) ? members.map((m) => stringOf((m as { name?: unknown; id?: unknown })?.name ?? (m as { id?: unknown })?.id)).join(', ') : '',
};

function stringOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const TAG = /\{\{\{\s*([^}]*?)\s*\}\}\}|\{\{\s*([^}]*?)\s*\}\}/g;
const ARG = /"([^"]*)"|'([^']*)'|(\S+)/g;

function parseExpr(source: string): Expr {
  const parts: Arg[] = [];
  for (const match of source.matchAll(ARG)) {
    if (match[1] !== undefined || match[2] !== undefined) parts.push({ literal: match[1] ?? match[2] ?? '' });
    else if (/^-?\d+(\.\d+)?$/.test(match[3] ?? '')) parts.push({ literal: Number(match[3]) });
    else parts.push({ path: match[3] ?? '' });
  }
  const [head, ...args] = parts;
  if (!head || !('path' in head)) throw new TemplateError(`empty or invalid expression "{{${source}}}"`);
  if (args.length && !(head.path in HELPERS)) throw new TemplateError(`unknown helper "${head.path}"`);
  return { name: head.path, args };
}

/** How `{{ }}` escapes a value: for a JSON string, unless the template renders something else. */
export type Escape = (text: string) => string;
const jsonEscape: Escape = (text) => JSON.stringify(text).slice(1, -1);

/** Parses a template once; the result renders it against any context. */
export function compileTemplate(template: string, escape: Escape = jsonEscape): (context: unknown) => string {
  const root: Node[] = [];
  const stack: { node: Extract<Node, { kind: 'block' }>; inElse: boolean }[] = [];
  const target = () => {
    const top = stack[stack.length - 1];
    return top ? (top.inElse ? top.node.otherwise : top.node.body) : root;
  };
  let last = 0;
  for (const match of template.matchAll(TAG)) {
    if (match.index > last) target().push({ kind: 'text', text: template.slice(last, match.index) });
    last = match.index + match[0].length;
    const raw = match[1] !== undefined;
    const source = (match[1] ?? match[2] ?? '').trim();
    if (source.startsWith('!')) continue;
    const open = /^#(if|unless|each)\s+(.+)$/.exec(source);
    if (open) {
      const node = { kind: 'block' as const, helper: open[1] as 'if' | 'unless' | 'each', expr: parseExpr(open[2] ?? ''), body: [], otherwise: [] };
      target().push(node);
      stack.push({ node, inElse: false });
      continue;
    }
    if (source === 'else') {
      const top = stack[stack.length - 1];
      if (!top || top.inElse) throw new TemplateError('{{else}} outside a block');
      top.inElse = true;
      continue;
    }
    const close = /^\/(if|unless|each)$/.exec(source);
    if (close) {
      const top = stack.pop();
      if (!top || top.node.helper !== close[1]) throw new TemplateError(`{{/${close[1]}}} does not close an open block`);
      continue;
    }
    if (/^[#/]/.test(source)) throw new TemplateError(`unsupported block "{{${source}}}"`);
    target().push({ kind: 'value', expr: parseExpr(source), raw });
  }
  if (stack.length) throw new TemplateError(`{{#${stack[stack.length - 1]?.node.helper}}} is never closed`);
  if (last < template.length) root.push({ kind: 'text', text: template.slice(last) });
  return (context) => render(root, { value: context, root: context }, escape);
}

function lookup(path: string, scope: Scope): unknown {
  if (path === 'this' || path === '.') return scope.value;
  if (path === '@index') return scope.index;
  if (path === '@first') return scope.index === 0;
  if (path === '@last') return scope.index !== undefined && scope.index === (scope.count ?? 0) - 1;
  const [base, keys] = path.startsWith('@root.') ? [scope.root, path.slice(6)] : path.startsWith('this.') ? [scope.value, path.slice(5)] : [scope.value, path];
  let value: unknown = base;
  for (const key of keys.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function evaluate(expr: Expr, scope: Scope): unknown {
  const helper = expr.args.length ? HELPERS[expr.name] : undefined;
  if (!helper) return lookup(expr.name, scope);
  return helper(...expr.args.map((arg) => ('path' in arg ? lookup(arg.path, scope) : arg.literal)));
}

function truthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

function render(nodes: Node[], scope: Scope, escape: Escape): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'value') {
      const text = stringOf(evaluate(node.expr, scope));
      out += node.raw ? text : escape(text);
    } else {
      const value = evaluate(node.expr, scope);
      if (node.helper === 'each') {
        const items = Array.isArray(value) ? value : [];
        out += items.length
          ? items.map((item, index) => render(node.body, { value: item, root: scope.root, index, count: items.length }, escape)).join('')
          : render(node.otherwise, scope, escape);
      } else {
        const pass = node.helper === 'if' ? truthy(value) : !truthy(value);
        out += render(pass ? node.body : node.otherwise, scope, escape);
      }
    }
  }
  return out;
}
