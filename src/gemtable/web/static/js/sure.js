// A question before an action that hurts someone (the host removing or banning a person): the page's own dialog
// over the sheet it came from, as Leave asks (leave.js), never the browser's confirm(). It is named by its question
// and described by what follows; the safe answer ("No, keep …") has the focus; No or Escape leaves everything as it
// was, with the focus back on the button that asked; the sheet it came from closing closes it too. Loaded with the
// host's sheet (host-sheet.js), whose words it is given.

import { h } from './dom.js';

/** Ask ``question`` (``text`` says what follows); on ``yes``, ``then()`` runs. */
export function sure({ question, text, yes, no }, then, from = document.activeElement) {
  const button = (id, cls, label, value) => h('button', { id, class: `btn wide ${cls}`, type: 'button', text: label,
    autofocus: value === '', on: { click: () => el.close(value) } });
  const el = h('dialog', { id: 'sure', class: 'sheet', 'aria-labelledby': 'sure-title', 'aria-describedby': 'sure-text' },
    h('div', { class: 'confirm' },
      h('h2', { id: 'sure-title', text: question }),
      h('p', { id: 'sure-text', class: 'warn', text }),
      h('div', { class: 'row wrap' }, button('sure-yes', 'danger', yes, 'yes'), button('sure-no', 'ghost', no, ''))));
  const over = from && from.closest('dialog');
  el.addEventListener('close', () => {
    el.remove();
    if (el.returnValue === 'yes') then();
    else if (from) {  // (a sheet drawn again meanwhile has the same button anew)
      const again = [...(over ? over.querySelectorAll('button') : [])].find((b) => b.textContent === from.textContent);
      (from.isConnected ? from : again)?.focus();
    }
  });
  if (over) over.addEventListener('close', () => el.close(), { once: true });
  document.querySelector('#sure')?.close();  // (one question at a time)
  document.body.append(el);
  el.showModal();
}
