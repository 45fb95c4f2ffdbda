// What a dialog's kernel learns when it starts (issue 45), so that dialoghelper, imported in any cell,
// talks to this window: `__DIALOG_NAME` in its environment and `__dialog_name` in the user's namespace
// (dialoghelper's `find_dname` reads them), and an import hook that points `dh_settings['port']` of
// `dialoghelper.core` at our server as the module loads — `"PORT/SECRET"`, since dialoghelper builds
// `http://localhost:{port}/{route}`. `dh_settings['dname']` is left alone: dialoghelper treats a set
// dname as "another dialog" and then refuses calls relative to the current message.

import { KernelSession } from '../kernel/session';

const PY = String.raw`
import importlib.abc, os, sys

PORT = None

def point(mod):
    "Points a loaded dialoghelper.core at this window's server."
    s = getattr(mod, 'dh_settings', None)
    if PORT and isinstance(s, dict): s['port'] = PORT

class Finder(importlib.abc.MetaPathFinder):
    "Finds dialoghelper.core through the other finders, and points it at our server once it has run."
    def find_spec(self, name, path=None, target=None):
        if name != 'dialoghelper.core': return None
        for f in sys.meta_path:
            if isinstance(f, Finder) or not hasattr(f, 'find_spec'): continue
            spec = f.find_spec(name, path, target)
            if spec is not None: break
        else: return None
        run = getattr(spec.loader, 'exec_module', None)
        if run is None: return spec
        def exec_module(module):
            run(module)
            point(module)
        spec.loader.exec_module = exec_module
        return spec

def setup(name, port):
    global PORT
    PORT = port
    os.environ['__DIALOG_NAME'] = name
    try: get_ipython().user_ns['__dialog_name'] = name
    except NameError: __import__('__main__').__dict__['__dialog_name'] = name
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, Finder)]
    if port:
        sys.meta_path.insert(0, Finder())
        if 'dialoghelper.core' in sys.modules: point(sys.modules['dialoghelper.core'])
`;

/** Tells the kernel its dialog's name and, when `port` is given (`"PORT/SECRET"`), where dialoghelper should send. */
export async function prepareDialoghelper(ks: Pick<KernelSession, 'evaluate'>, name: string, port: string | null): Promise<void> {
  // One statement into a private module: nothing but `__dialog_name` lands in the user's namespace.
  const mod = "__import__('sys').modules.setdefault('_dialog_notebooks_dh', __import__('types').ModuleType('_dialog_notebooks_dh'))";
  await ks.evaluate(`exec(${JSON.stringify(PY)}, ${mod}.__dict__)\n${mod}.setup(${JSON.stringify(name)}, ${port === null ? 'None' : JSON.stringify(port)})`, {});
}
