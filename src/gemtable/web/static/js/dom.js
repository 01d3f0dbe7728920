// Tiny DOM helpers. Data from the server is only ever set as text (textContent),
// never parsed as HTML.

const SVGNS = 'http://www.w3.org/2000/svg';

function fill(el, props, children) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    else if (key === 'text') el.textContent = String(value);
    else if (key === 'on') for (const [ev, fn] of Object.entries(value)) el.addEventListener(ev, fn);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(3)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h('p', {class: 'x'}, 'text', child). */
export function h(tag, props, ...children) {
  return fill(document.createElement(tag), props, children);
}

/** An SVG element. */
export function s(tag, props, ...children) {
  return fill(document.createElementNS(SVGNS, tag), props, children);
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

/** Replace the children of el. */
export function put(el, ...children) {
  el.replaceChildren();
  return fill(el, null, children);
}

export function show(el, on) {
  el.hidden = !on;
}

// Only a change lays the page out (the clock ticks 5 times a second).
export function text(el, s) { if (el.textContent !== s) el.textContent = s; }

/** The table code of a /t/CODE... address (letters only, upper case). */
export function tableCode(path = location.pathname) {
  const m = path.match(/^\/t\/([A-Za-z]{1,8})/);
  return m ? m[1].toUpperCase() : '';
}
