// The table's join QR code, from /api/tables/CODE/qr.svg.
//
// It is shown as an <img>. Should the image fail to decode (an SVG served without
// its xmlns cannot be an image), the same file is fetched, parsed as XML (no
// script can run) and redrawn as inline SVG from its path data alone.

import { s, h } from './dom.js';

// Where phones join: the server's public URL (its LAN address, or --public-url), never this page's own
// location: a host who opened http://localhost:8000 must not hand the room a link to "localhost".
let site = null;

export function serverInfo() {
  site ??= fetch('/api/server').then((r) => r.json());
  return site;
}

let publicUrl = '';

export async function loadPublicUrl() {
  publicUrl = (await serverInfo()).public_url;
  return publicUrl;
}

export function joinUrl(code) {
  return publicUrl ? `${publicUrl}/t/${code}` : '';
}

export function qrCode(code, alt, cls = 'qr') {
  const src = `/api/tables/${encodeURIComponent(code)}/qr.svg`;
  const img = h('img', { src, alt, class: cls, width: 264, height: 264, decoding: 'async' });
  img.addEventListener('error', () => {
    redraw(src, alt, cls).then((svg) => svg && img.replaceWith(svg)).catch(() => {});
  }, { once: true });
  return img;
}

async function redraw(src, alt, cls) {
  const res = await fetch(src);
  if (!res.ok) return null;
  const doc = new DOMParser().parseFromString(await res.text(), 'image/svg+xml');
  const root = doc.documentElement;
  if (!root || root.localName !== 'svg') return null;
  const g = root.querySelector('g');
  const scale = Number((g?.getAttribute('transform') || '').match(/scale\(([\d.]+)\)/)?.[1] || 1);
  const size = parseFloat(root.getAttribute('width') || '0') / scale;
  if (!(size > 0)) return null;
  const paths = [...root.querySelectorAll('path')].map((p) => s('path', {
    d: p.getAttribute('d') || '',
    fill: p.getAttribute('fill') || 'none',
    stroke: p.getAttribute('stroke') || 'none',
  }));
  return s('svg', { viewBox: `0 0 ${size} ${size}`, class: cls, role: 'img', 'aria-label': alt,
    'shape-rendering': 'crispEdges' }, paths);
}
