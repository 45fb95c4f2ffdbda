// A stand-in for the `dialoghelper` package (PyPI is out of reach in tests): its `core` module sends what
// dialoghelper 0.2.41 sends (`_prep_endp`/`call_endp`): a form POST to
// `http://localhost:{dh_settings['port']}/{route}` with `dlg_name` from find_dname (dh_settings['dname'],
// then $__DIALOG_NAME, then a `__dialog_name` variable), `id_` for an id, booleans as `true`/`false`
// (httpx's form encoding), lists as repeated keys, `Accept: application/json` for a JSON reply, and a
// reply carrying `error` raised as DialogAPIError. Standard library only (the kernel has no httpx).
// Written into the e2e workspace beside the dialog: the kernel's working directory is on its sys.path.

export const DIALOGHELPER_INIT = `__version__ = "0.2.41"\nfrom .core import *\n`;

export const DIALOGHELPER_CORE = String.raw`
import json as _json, os, urllib.parse, urllib.request
from pathlib import Path
from os.path import normpath

__all__ = ['dh_settings', 'DialogAPIError', 'call_endp', 'call_endpa', 'find_dname', 'curr_dialog', 'msg_idx',
           'read_msg', 'find_msgs', 'add_msg', 'update_msg', 'del_msgs', 'run_msg', 'add_html', 'pop_data',
           'list_dialogs', 'copy_msgs', 'paste_msgs', 'toggle_bookmark', 'toggle_comment']

dh_settings = {'port': 5001}

class DialogAPIError(Exception): pass

def _find_var(name):
    import inspect
    for f in inspect.stack():
        if name in f.frame.f_globals: return f.frame.f_globals[name]
    return None

def find_dname(dname=None, required=True):
    if dname:
        dname = dname.removesuffix('.ipynb')
        if dname.startswith('/'): return dname
    curr = dh_settings.get('dname', None) or os.getenv('__DIALOG_NAME')
    if not curr:
        if required: curr = _find_var('__dialog_name')
        else: return None
    if not curr: raise ValueError("No dialog context")
    if not dname: return '/' + curr
    return '/' + normpath(Path(curr).parent / dname)

def _form_value(v):
    if v is True: return 'true'
    if v is False: return 'false'
    return str(v)

def call_endp(path, dname='', json=False, raiseex=False, id=None, required=True, timeout=10, headers=None, **data):
    dname = find_dname(dname, required=required)
    if dname: data['dlg_name'] = dname.strip('/')
    if id: data['id_'] = id
    pairs = []
    for k, v in data.items():
        if v is None: continue
        for x in (v if isinstance(v, (list, tuple)) else [v]): pairs.append((k, _form_value(x)))
    url = f'http://localhost:{dh_settings["port"]}/{path}'
    hdrs = {'Content-Type': 'application/x-www-form-urlencoded', **({'Accept': 'application/json'} if json else {}), **(headers or {})}
    req = urllib.request.Request(url, data=urllib.parse.urlencode(pairs).encode(), headers=hdrs, method='POST')
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r: text = r.read().decode()
    except urllib.error.HTTPError as e:
        if raiseex: raise
        text = e.read().decode()
    if not json: return text
    try: res = _json.loads(text)
    except Exception: return text
    if isinstance(res, dict) and 'error' in res: raise DialogAPIError(res['error'])
    return res

async def call_endpa(path, dname='', **kw): return call_endp(path, dname, **kw)

async def curr_dialog(with_messages=False, dname=''):
    res = await call_endpa('curr_dialog_', dname, json=True, with_messages=with_messages)
    if res: return {'name': res['name'], 'mode': res['mode']}

async def msg_idx(id=None, dname=''):
    return (await call_endpa('msg_idx_', dname, json=True, id=id))['idx']

async def read_msg(n=-1, relative=True, id=None, start_line=1, end_line=None, nums=False, dname=''):
    data = dict(n=n, relative=relative, id=id)
    if start_line != 1 or end_line is not None: data['view_range'] = [start_line, -1 if end_line is None else end_line]
    if nums: data['nums'] = nums
    return await call_endpa('read_msg_', dname, json=True, **data)

async def find_msgs(re_pattern='', msg_type=None, before=0, after=0, context=None, use_case=False, use_regex=True,
                    only_err=False, only_exp=False, only_chg=False, ids='', limit=None, include_output=True,
                    include_meta=True, as_xml=False, nums=False, trunc_out=False, trunc_in=False, headers_only=False,
                    header_section=None, include_skipped=False, dname=''):
    if context is None: context = 0 if headers_only else 1
    res = await call_endpa('find_msgs_', dname, json=False, re_pattern=re_pattern, msg_type=msg_type, limit=limit, ids=ids,
        use_case=use_case, use_regex=use_regex, only_err=only_err, only_exp=only_exp, only_chg=only_chg,
        include_output=include_output, include_meta=include_meta, as_xml=as_xml, nums=nums, trunc_out=trunc_out,
        trunc_in=trunc_in, before=before, after=after, context=context, headers_only=headers_only,
        header_section=header_section, include_skipped=include_skipped)
    if as_xml: return res
    res = _json.loads(res)
    if isinstance(res, dict) and 'error' in res: raise DialogAPIError(res['error'])
    return res['msgs']

async def add_msg(content, msg_type='note', run=False, placement='', id=None, dname='', **kwargs):
    if not placement: placement = 'add_after' if id or not dname else 'at_end'
    res = await call_endpa('add_relative_', dname, json=True, content=content, placement=placement, id=id,
                           msg_type=msg_type, run=run, **kwargs)
    return res['id']

async def update_msg(id=None, msg=None, dname='', log_changed=False, **kwargs):
    if msg: kwargs |= msg.get('msg', msg)
    if not id: id = kwargs.pop('id', None)
    res = await call_endpa('update_msg_', dname, json=True, id=id, log_changed=log_changed, **kwargs)
    return res['id']

async def del_msgs(ids=None, dname='', log_changed=False):
    return [await call_endpa('rm_msg_', dname, raiseex=True, msid=i.strip(), json=True) for i in ids.split(',')]

async def run_msg(ids=None, dname=''):
    return await call_endpa('add_runq_', dname, ids=ids, json=True)

async def list_dialogs(subpath='', depth=1):
    d = find_dname(subpath, required=False)
    sub = (d or '') if subpath else (str(Path(d).parent) if d else '')
    return await call_endpa('list_dialogs_', json=True, required=False, subpath=sub.lstrip('/'), depth=depth)

def _check_res(res, dname):
    if not res: raise DialogAPIError(f'Dialog {dname} may not be running, or message not found')
    return {'success': 'complete'}

async def copy_msgs(ids=None, cut=False, dname=''):
    first = ids.split(',')[0]
    return _check_res(await call_endpa('msg_clipboard_', dname, ids=ids, id=first, cmd='cut' if cut else 'copy'), dname)

async def paste_msgs(id=None, after=True, dname=''):
    return _check_res(await call_endpa('msg_paste_', dname, id=id, after=after, json=True), dname)

async def toggle_bookmark(id, n, dname=''):
    return await call_endpa('bookmark_', dname, json=True, id=id, n=n)

async def toggle_comment(id, dname=''):
    return _check_res(await call_endpa('toggle_comment_', dname, ids=id, id=id.split(',')[0]), dname)

def add_html(content, dname=''):
    call_endp('add_html_', dname, content=str(content))
    return {'success': 'Content added to DOM'}

def pop_data(idx, timeout=15):
    return call_endp('pop_data_blocking_', data_id=idx, timeout=timeout, json=True)
`;
