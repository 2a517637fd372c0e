// The unread count in the tab's title, "(3) Shop", while the visitor is elsewhere. One owner per
// page however many widgets ask: the page's own title is kept once and put back exactly, and a
// title the page itself changes meanwhile becomes the one to restore.

const counts = new Map<object, number>();
let original: string | null = null;
let shown: string | null = null;

/** The title as the page wrote it (document.title collapses its spaces). */
const pageTitle = () => document.querySelector('title')?.textContent ?? document.title;

function apply() {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  if (shown !== null && pageTitle() !== shown) original = pageTitle(); // the page retitled itself
  if (total > 0) {
    original ??= pageTitle();
    shown = `(${total > 99 ? '99+' : total}) ${original}`;
    document.title = shown;
  } else if (original !== null) {
    const title = document.querySelector('title');
    if (title) title.textContent = original;
    else document.title = original;
    original = null;
    shown = null;
  }
}

/** Sets (or, with 0, clears) what one widget adds to the title. */
export function setTitleCount(owner: object, count: number) {
  if (count > 0) counts.set(owner, count);
  else counts.delete(owner);
  apply();
}
