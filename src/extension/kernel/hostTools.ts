// What prompts take from the kernel (ai-projections §11): the values of ``$`expr` `` references and the
// functions of ``&`fn` `` references as model tools (schema, then calls). The work is done by the Python
// below, run silently in the user's kernel; it lives in a private module, never in the user's namespace.

import { Json, JsonObject, b64decode } from '../../core';
import type { ToolImage } from '../../core/tools';
import { KernelSession } from './session';

/**
 * The kernel side, exec'd into the module `_dialog_notebooks` before each use (so it survives restarts
 * and upgrades). Each entry point returns `_Out(payload)`, whose mime bundle carries the payload as
 * `application/json`: `user_expressions` hands it back as JSON, with no output in any cell.
 */
const PY = String.raw`
import ast, base64, builtins, contextlib, enum, inspect, io, json, re, reprlib, textwrap, tokenize, traceback, types, typing

MIME = 'application/json'
IMAGE_MIMES = ('image/png', 'image/jpeg')
JSON_TYPES = {str: 'string', int: 'integer', float: 'number', bool: 'boolean', type(None): 'null',
              list: 'array', tuple: 'array', set: 'array', frozenset: 'array', dict: 'object'}

class _Out:
    "A payload that IPython formats as JSON for user_expressions."
    def __init__(self, payload): self.payload = payload
    def _repr_mimebundle_(self, include=None, exclude=None): return {MIME: self.payload}

def _shell():
    try:
        from IPython import get_ipython
        return get_ipython()
    except ImportError: return None

def _ns():
    "The user's namespace: IPython's, else __main__'s."
    ip = _shell()
    return ip.user_ns if ip is not None else __import__('__main__').__dict__

def _err(e):
    "The last line of a traceback: 'ZeroDivisionError: division by zero'."
    return ''.join(traceback.format_exception_only(type(e), e)).strip()

def _resolve(ref, ns):
    "A dotted name looked up by attribute, never eval'd: references come from prompt text."
    first, *rest = ref.split('.')
    if first in ns: obj = ns[first]
    elif hasattr(builtins, first): obj = getattr(builtins, first)
    else: raise NameError(f"name '{first}' is not defined")
    for part in rest: obj = getattr(obj, part)
    return obj

# ---------------------------------------------------------------- dollar references: values for vars_hist

def _image(v):
    "(mime, base64) of an image-like value (PIL images, matplotlib figures, _repr_png_), via IPython's formatters."
    ip = _shell()
    if ip is None or isinstance(v, (str, int, float, bool, type(None), list, dict, tuple)): return None
    try: data, _ = ip.display_formatter.format(v, include=IMAGE_MIMES)
    except Exception: return None
    for m in IMAGE_MIMES:
        if data.get(m): return m, data[m] if isinstance(data[m], str) else base64.b64encode(data[m]).decode()
    return None

def var_values(exprs_json):
    "Per expression: its type name and str() (what vars_hist writes), or base64 bytes for bytes and images, or the error."
    ns, out = _ns(), []
    for e in json.loads(exprs_json):
        try:
            v = eval(e, ns)
            r = {'expr': e, 'type': type(v).__name__}
            if isinstance(v, (bytes, bytearray, memoryview)): r['bytes'] = base64.b64encode(bytes(v)).decode()
            else:
                img = _image(v)
                if img is not None: r['bytes'] = img[1]
                else: r['text'] = str(v)
        except Exception as ex: r = {'expr': e, 'error': _err(ex)}
        out.append(r)
    return _Out(out)

# ---------------------------------------------------------------- the Dialog Variables view

def variables():
    "The user's variables as Jupyter's Variables panel lists them: name, type, a short repr; no modules, nothing private."
    ip, out = _shell(), []
    hidden = getattr(ip, 'user_ns_hidden', {}) if ip is not None else {}
    for k, v in list(_ns().items()):
        if k.startswith('_') or k in hidden or isinstance(v, types.ModuleType): continue
        try: r = reprlib.repr(v)
        except Exception as ex: r = '<' + _err(ex) + '>'
        out.append({'name': k, 'type': type(v).__name__, 'value': r[:200]})
    return _Out(sorted(out, key=lambda r: r['name'].lower()))

# ---------------------------------------------------------------- ampersand references: tool schemas

def _schema(t):
    "JSON schema of a type hint; {} (any value) where JSON schema has no word for it."
    if t is inspect.Parameter.empty or t is typing.Any: return {}
    if t is None: return {'type': 'null'}
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is typing.Union or origin is getattr(types, 'UnionType', None):
        opts = [_schema(a) for a in args if a is not type(None)]  # Optional[X] is X: None comes with the default
        return opts[0] if len(opts) == 1 else {'anyOf': opts}
    if origin is typing.Literal: return {'enum': list(args)}
    if inspect.isclass(t) and issubclass(t, enum.Enum): return {'enum': [m.value for m in t]}
    jt = JSON_TYPES.get(origin or t)
    if jt is None: return {}
    s = {'type': jt}
    if jt == 'array' and args: s['items'] = _schema(args[0])
    if jt == 'object' and len(args) == 2: s['additionalProperties'] = _schema(args[1])
    return s

def _hints(f):
    "Resolved type hints (string annotations included); the raw annotations when they cannot be resolved."
    try: return typing.get_type_hints(f)
    except Exception: return getattr(f, '__annotations__', {})

def _param_docs(f):
    "Comments after each parameter in the signature (fastcore docments style, as Solveit's tools use): a:int, # the first number"
    try: src = textwrap.dedent(inspect.getsource(f))
    except (OSError, TypeError): return {}
    docs, depth, cur, expect, started = {}, 0, None, False, False
    try:
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if not started:
                started = tok.type == tokenize.NAME and tok.string == 'def'  # skips decorators
            elif tok.type == tokenize.OP and tok.string in '([{':
                depth += 1
                expect = expect or depth == 1
            elif tok.type == tokenize.OP and tok.string in ')]}': depth -= 1
            elif tok.type == tokenize.OP and tok.string == ',' and depth == 1: expect = True
            elif tok.type == tokenize.NAME and depth == 1 and expect: cur, expect = tok.string, False
            elif tok.type == tokenize.COMMENT and depth == 1 and cur: docs[cur] = tok.string.lstrip('#').strip()
            elif tok.type == tokenize.NEWLINE and depth == 0: break  # end of the signature
    except (tokenize.TokenError, IndentationError, SyntaxError): pass
    return docs

def _jsonable(v):
    try: json.dumps(v); return True
    except (TypeError, ValueError): return False

def _tool(ref, ns):
    f = _resolve(ref, ns)
    if not callable(f): raise TypeError(f'{ref} is not callable')
    hints, docs, props, required = _hints(f), _param_docs(f), {}, []
    for p in inspect.signature(f).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD): continue
        s = dict(_schema(hints.get(p.name, p.annotation)))
        if p.name in docs: s['description'] = docs[p.name]
        if p.default is p.empty: required.append(p.name)
        elif _jsonable(p.default): s['default'] = p.default
        props[p.name] = s
    name = re.sub(r'[^A-Za-z0-9_-]', '_', ref)[:64]  # the model's tool-name alphabet
    return {'name': name, 'description': inspect.getdoc(f) or '',
            'parameters': {'type': 'object', 'properties': props, 'required': required}}

def tool_schemas(refs_json):
    "Per reference: {ref, schema} from the function's signature, type hints and docstring, or {ref, error}."
    ns, out = _ns(), []
    for ref in json.loads(refs_json):
        try: out.append({'ref': ref, 'schema': _tool(ref, ns)})
        except Exception as ex: out.append({'ref': ref, 'error': _err(ex)})
    return _Out(out)

# ---------------------------------------------------------------- ampersand references: tool calls

# Kept across the refresh that precedes each use: finish() runs after call_tool() in a second request.
last, pending = globals().get('last'), globals().get('pending')

def call_tool(ref, args_json):
    """Calls ref(**args) and keeps {ok, text, printed} for take(); a raise is a result the model reads.
    Runs as plain code, so an interrupt stops it as it stops a cell. A coroutine result is kept for finish()."""
    global last, pending
    buf = io.StringIO()
    try:
        f, kw = _resolve(ref, _ns()), json.loads(args_json)
        params = inspect.signature(f).parameters.values()
        pos = [kw.pop(p.name) for p in params if p.kind == p.POSITIONAL_ONLY and p.name in kw]
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf): res = f(*pos, **kw)
        if inspect.isawaitable(res): pending, last = res, {'pending': True}
        else: last = {'ok': True, 'text': res if isinstance(res, str) else str(res), 'printed': buf.getvalue()}
    except Exception as ex: last = {'ok': False, 'text': _err(ex), 'printed': buf.getvalue()}

async def finish():
    """Awaits the coroutine call_tool kept, on the kernel's own loop (where the user's async objects live).
    Top-level await makes interrupts cooperative (at the next await), which is why sync tools never come here."""
    global last, pending
    coro, pending, buf = pending, None, io.StringIO()
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf): res = await coro
        last = {'ok': True, 'text': res if isinstance(res, str) else str(res), 'printed': buf.getvalue()}
    except Exception as ex: last = {'ok': False, 'text': _err(ex), 'printed': buf.getvalue()}

def run_python(code):
    """Solveit's python tool: runs code in the user's namespace; the result is what it printed, then the
    repr of its last expression (as a cell shows it), or the error line; an image-like last value comes
    as an image too. Interrupted, it returns what was printed so far."""
    global last
    buf = io.StringIO()
    try:
        tree = ast.parse(code, '<python tool>', 'exec')
        tail = ast.Expression(tree.body.pop().value) if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        ns, res = _ns(), None
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            exec(compile(tree, '<python tool>', 'exec'), ns)
            if tail is not None: res = eval(compile(tail, '<python tool>', 'eval'), ns)
        last = {'ok': True, 'text': buf.getvalue() + ('' if res is None else repr(res)), 'printed': ''}
        img = None if res is None else _image(res)
        if img: last['images'] = [{'mime': img[0], 'data': img[1]}]
    except KeyboardInterrupt: last = {'ok': False, 'text': buf.getvalue() + 'KeyboardInterrupt', 'printed': '', 'interrupted': True}
    except Exception as ex: last = {'ok': False, 'text': buf.getvalue() + _err(ex), 'printed': ''}

def take():
    global last
    r, last = last, None
    return _Out(r)
`;

const MOD = "__import__('_dialog_notebooks')";
/** Defines (or refreshes) the module; one statement, so nothing is bound in the user's namespace. */
const INSTALL = `exec(${JSON.stringify(PY)}, __import__('sys').modules.setdefault('_dialog_notebooks', __import__('types').ModuleType('_dialog_notebooks')).__dict__)`;

/** A JSON value as a Python string literal of its JSON text (JSON string syntax is valid Python). */
function pyJsonText(v: unknown): string {
  return JSON.stringify(JSON.stringify(v));
}

type Evaluator = Pick<KernelSession, 'evaluate'>;

/** Runs `code` after installing the module, then returns the JSON payload of `expr`. */
async function run<T>(session: Evaluator, code: string, expr: string): Promise<T> {
  const r = (await session.evaluate(code ? `${INSTALL}\n${code}` : INSTALL, { r: expr })).r;
  if (r.status !== 'ok') throw new Error(`Dialog helper failed in the kernel: ${r.ename}: ${r.evalue}`);
  return r.data['application/json'] as T;
}

/** A ``$`expr` `` value: type name and `str()` text, bytes (bytes values and images, as media), or the error. */
export type VarValue =
  | { expr: string; type: string; text: string }
  | { expr: string; type: string; bytes: Uint8Array }
  | { expr: string; error: string };

/** Evaluates each expression in the user's namespace. */
export async function kernelVars(session: Evaluator, exprs: readonly string[]): Promise<VarValue[]> {
  const raw = await run<({ expr: string; type: string; text?: string; bytes?: string } | { expr: string; error: string })[]>(
    session,
    '',
    `${MOD}.var_values(${pyJsonText(exprs)})`,
  );
  return raw.map((v) => ('bytes' in v && v.bytes !== undefined ? { expr: v.expr, type: v.type, bytes: b64decode(v.bytes) } : (v as VarValue)));
}

/** A tool as the model sees it; `parameters` is the JSON schema of its keyword arguments. */
/** A variable of the user's namespace, for the Dialog Variables view and ``$`…` `` completions. */
export interface KernelVariable {
  name: string;
  type: string;
  /** A short repr (reprlib's, at most 200 characters). */
  value: string;
}

export function kernelVariables(session: Evaluator): Promise<KernelVariable[]> {
  return run<KernelVariable[]>(session, '', `${MOD}.variables()`);
}

export interface ToolSchema {
  /** The reference with characters outside `[A-Za-z0-9_-]` replaced by `_` (Anthropic's and OpenAI's alphabet). */
  name: string;
  description: string;
  parameters: JsonObject;
}

/** A ``&`fn` `` reference: its schema, or why it cannot be a tool (not defined, not callable). */
export type ToolSpec = { ref: string; schema: ToolSchema } | { ref: string; error: string };

/** Builds the schema of each referenced function from its signature, type hints, docstring and parameter comments. */
export function toolSchemas(session: Evaluator, refs: readonly string[]): Promise<ToolSpec[]> {
  return run<ToolSpec[]>(session, '', `${MOD}.tool_schemas(${pyJsonText(refs)})`);
}

/** The result the model gets: `text` is `str(result)` or the error line; `printed` is what the call wrote. */
export interface ToolResult {
  ok: boolean;
  text: string;
  printed: string;
  /** A dialog tool's result as data, where it has one (see core/tools ToolOutcome.value). */
  value?: Json;
  /** Images beside the text (a message's outputs read, python's image-like last value), for doors that pass them on. */
  images?: ToolImage[];
  /** python was interrupted: `text` holds what it printed until then. */
  interrupted?: boolean;
}

/** Calls the referenced function with the model's JSON arguments; an interrupt rejects with a KernelEvalError. */
export async function callTool(session: Evaluator, ref: string, args: JsonObject): Promise<ToolResult> {
  const r = await run<ToolResult | { pending: true }>(session, `${MOD}.call_tool(${JSON.stringify(ref)}, ${pyJsonText(args)})`, `${MOD}.take()`);
  return 'pending' in r ? run<ToolResult>(session, `await ${MOD}.finish()`, `${MOD}.take()`) : r;
}

/** Runs the model's `python(code)` call in the user's namespace; an interrupt rejects with a KernelEvalError. */
export function runPython(session: Evaluator, code: string): Promise<ToolResult> {
  return run<ToolResult>(session, `${MOD}.run_python(${JSON.stringify(code)})`, `${MOD}.take()`);
}

/** The tool in Anthropic's Messages API shape. */
export function anthropicTool(s: ToolSchema): { name: string; description: string; input_schema: JsonObject } {
  return { name: s.name, description: s.description, input_schema: s.parameters };
}

/** The tool in OpenAI's Chat Completions shape. */
export function openaiTool(s: ToolSchema): { type: 'function'; function: ToolSchema } {
  return { type: 'function', function: s };
}
