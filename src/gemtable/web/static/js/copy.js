// Copying the join link from the invite sheet (table.js loads it at the first Copy, having copied the link in the
// tap itself where there is no Clipboard API: WebKit copies only within the tap).

import { $ } from './dom.js';
import { t } from './i18n.js';
import { joinUrl, loadPublicUrl } from './qr.js';
import { toast } from './table.js';

/** Select the link's text field: what a person then copies by hand. */
function selectLink(field) {
  field.focus({ preventScroll: true });
  field.select();
  field.setSelectionRange(0, field.value.length);
}

/**
 * Copy the join link: the Clipboard API where there is one (a secure context), else the old
 * execCommand('copy') on the selected, read-only text field, which works over plain HTTP. If both
 * fail the link is left selected and the page says to press and hold it: never a silent no-op.
 */
export async function copyLink(code, done = false) {
  const field = $('#invite-link');
  if (done) {  // (the tap copied it already: table.js, in the tap)
    $('#invite-hold').hidden = true;
    toast(t('invite.copied'));
    return;
  }
  const url = joinUrl(code) || await loadPublicUrl().then(() => joinUrl(code));
  field.value = url;
  $('#invite-hold').hidden = true;
  if (navigator.clipboard && typeof navigator.clipboard.writeText === 'function') {
    try {
      await navigator.clipboard.writeText(url);
      toast(t('invite.copied'));
      return;
    } catch { /* not allowed here: try the old way */ }
  }
  selectLink(field);
  let copied = false;
  try { copied = document.execCommand('copy'); } catch { copied = false; }
  if (copied) {
    toast(t('invite.copied'));
  } else {
    selectLink(field);
    $('#invite-hold').hidden = false;
    toast(t('invite.hold'));
  }
}
