// Moving between pages without a reload: main.js listens for "scopa:route".

export function navigate(url) {
  history.pushState(null, "", url);
  window.dispatchEvent(new Event("scopa:route"));
}
