// Keep DOM nodes that did not change across a re-render, so a tap or click that is in
// progress (pointer down on the old node) is not lost when a new frame arrives.

/**
 * Walk `next` (a freshly built tree) alongside `prev` (the tree on screen) and put back
 * every previous child whose markup is identical. Returns `next`.
 */
export function keepUnchanged(prev, next) {
  if (!prev || !next) return next;
  const oldKids = [...prev.children];
  const newKids = [...next.children];
  newKids.forEach((child, i) => {
    const old = oldKids[i];
    if (!old || old.tagName !== child.tagName) return;
    if (old.outerHTML === child.outerHTML) {
      child.replaceWith(old);
    } else if (old.className === child.className) {
      keepUnchanged(old, child);
    }
  });
  return next;
}
