// Another program writing a dialog's file, as dialoghelper's and Solveit's skills do: a Python process that
// reads the file, adds or edits one note and writes it back, in place or by a rename onto it. One op at a
// time, each answered when its write is done (the stress suite and the many-hands bench).
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

/** The other program: reads the file, adds or edits one note, writes it back in place or by a rename. */
const PROGRAM = `
import json, os, sys
for line in sys.stdin:
    op = json.loads(line)
    path = op['path']
    try:
        with open(path, encoding='utf-8') as f: nb = json.load(f)
    except Exception as e:
        print(json.dumps({'ok': False, 'why': 'read: ' + str(e)}), flush=True); continue
    cells = nb['cells']
    ids = [c.get('id') for c in cells]
    if op['op'] == 'add':
        at = ids.index(op['after']) + 1 if op['after'] in ids else len(cells)
        cells.insert(at, {'cell_type': 'markdown', 'id': op['id'], 'metadata': {}, 'source': op['text']})
    elif op['id'] in ids:
        cells[ids.index(op['id'])]['source'] = op['text']
    else:
        print(json.dumps({'ok': False, 'why': 'gone: ' + op['id']}), flush=True); continue
    text = json.dumps(nb, indent=1, ensure_ascii=False)
    if op['rename']:
        tmp = path + '.tmp'
        with open(tmp, 'w', encoding='utf-8') as f: f.write(text)
        os.replace(tmp, path)
    else:
        with open(path, 'w', encoding='utf-8') as f: f.write(text)
    print(json.dumps({'ok': True}), flush=True)
`;

export interface ProgramOp {
  path: string;
  op: 'add' | 'edit';
  id: string;
  text: string;
  /** add: the message it goes after (none there: at the end). */
  after?: string;
  /** Write a temporary file and rename it onto the dialog, as editors save. */
  rename: boolean;
}

export class Program {
  private readonly proc: ChildProcessWithoutNullStreams;
  private buf = '';
  private waiters: ((r: { ok: boolean; why?: string }) => void)[] = [];
  constructor() {
    this.proc = spawn('python3', ['-u', '-c', PROGRAM]);
    this.proc.stdout.on('data', (d: Buffer) => {
      this.buf += d.toString();
      let nl;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        this.waiters.shift()?.(JSON.parse(line));
      }
    });
  }
  run(op: ProgramOp): Promise<{ ok: boolean; why?: string }> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.proc.stdin.write(JSON.stringify(op) + '\n');
    });
  }
  stop(): void {
    this.proc.stdin.end();
    this.proc.kill();
  }
}

