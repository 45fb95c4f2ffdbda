// The UI scripts' context-menu helper (test/ui/lib/panelPage.mjs) on a loaded machine (issue 47, item 9):
// a right-click that opened no menu, or a menu that closed under the pointer, makes it open the menu
// again instead of waiting 30 s on a hover that cannot happen. Driven by a fake page that plays those events.
import * as assert from 'node:assert/strict';

type Clicker = (page: unknown, label: string, open: () => Promise<void>, timeout?: number) => Promise<void>;

/** A page whose context menu opens only on the `opensOn`-th right-click, and whose `Open as Dialog` item then takes hover, focus and click. */
function fakePage(opensOn: number) {
  const state = { opens: 0, shown: false, hovered: false, clicked: 0, escapes: 0 };
  const fail = (what: string) => Promise.reject(new Error(`locator.${what}: Timeout exceeded`));
  const locator = (selector: string) => {
    const focused = selector.includes('.focused');
    const self = {
      first: () => self,
      waitFor: () => (state.shown && (!focused || state.hovered) ? Promise.resolve() : fail('waitFor')),
      hover: () => {
        if (!state.shown) return fail('hover');
        state.hovered = true;
        return Promise.resolve();
      },
      click: () => {
        if (!state.shown) return fail('click');
        state.clicked++;
        return Promise.resolve();
      },
    };
    return self;
  };
  const page = {
    locator,
    keyboard: {
      press: async (key: string) => {
        if (key === 'Escape') state.escapes++;
        state.shown = false;
        state.hovered = false;
      },
    },
  };
  const open = async () => {
    state.opens++;
    state.shown = state.opens >= opensOn;
  };
  return { page, open, state };
}

describe('ui: the context-menu helper', () => {
  let clickMenuItem: Clicker;
  before(async () => {
    // @ts-expect-error -- the UI scripts' helpers are plain JavaScript, without types
    ({ clickMenuItem } = (await import('../ui/lib/panelPage.mjs')) as { clickMenuItem: Clicker });
  });

  it('clicks the item of a menu that opened at once', async () => {
    const f = fakePage(1);
    await clickMenuItem(f.page, 'Open as Dialog', f.open);
    assert.deepEqual([f.state.opens, f.state.clicked], [1, 1]);
  });

  it('opens the menu again when a right-click was swallowed, then clicks once', async () => {
    const f = fakePage(3);
    await clickMenuItem(f.page, 'Open as Dialog', f.open);
    assert.deepEqual([f.state.opens, f.state.clicked], [3, 1]);
  });

  it('says which item it could not click when the menu never opens', async () => {
    const f = fakePage(Infinity);
    await assert.rejects(clickMenuItem(f.page, 'Open as Dialog', f.open, 0), /Open as Dialog/);
  });
});
