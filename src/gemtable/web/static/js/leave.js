// Leave's question: the page's own dialog over the invite sheet (never the browser's confirm()), named by its
// question and described by what follows; "No, stay" has the focus, and No or Escape puts it back on Leave.
// table.js loads it the first time Leave is tapped, with its words (static/i18n/forms.LANG.json).

import { h, $ } from './dom.js';
import { applyStatic, loadTexts } from './i18n.js';

await loadTexts('forms');

const button = (id, cls, key, click) => h('button', { id, class: `btn wide ${cls}`, type: 'button',
  'data-i18n': key, autofocus: id === 'leave-no', on: { click } });

/** Ask; on Yes, ``leave`` runs and the invite sheet closes. */
export function ask(leave) {
  let el = $('#leave-sure');
  if (!el) {
    el = h('dialog', { id: 'leave-sure', class: 'sheet', 'aria-labelledby': 'leave-sure-title',
      'aria-describedby': 'leave-sure-text' }, h('div', { class: 'confirm' },
      h('h2', { id: 'leave-sure-title', 'data-i18n': 'leave.title' }),
      h('p', { id: 'leave-sure-text', class: 'warn', 'data-i18n': 'leave.text' }),
      h('div', { class: 'row wrap' }, button('leave-yes', 'danger', 'leave.yes', () => el.close('leave')),
        button('leave-no', 'ghost', 'leave.no', () => el.close()))));
    el.addEventListener('close', () => {
      const yes = el.returnValue === 'leave';
      el.returnValue = '';
      if (yes) {
        el.leave();
        $('#invite').close();
      } else if ($('#invite').open) $('#invite-leave').focus();
    });
    applyStatic(el);
    document.body.append(el);
  }
  el.leave = leave;
  el.showModal();
}
