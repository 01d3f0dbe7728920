// A game's results drawn by a module loaded when they first show, so that a phone in a game does not carry
// the results' code (each game's page.js: export const renderResults = resultsLater(() => import('./results.js'))).

import { h, put } from './dom.js';
import { t } from './i18n.js';

/** ``renderResults`` that loads its module (``load``: its import) the first time: until then the results say
 *  only their title; then the page draws again (``ui.rerender``; on the results page, the function at once). */
export function resultsLater(load) {
  let module = null;
  return (el, data, ui) => {
    if (module) {
      module.renderResults(el, data, ui);
      return;
    }
    put(el, h(data.heading || 'h2', { class: 'results-title', text: t('results.title') }));
    const css = '/static/css/results.css';  // the results' styles come with them
    if (!document.querySelector(`link[href="${css}"]`)) document.head.append(h('link', { rel: 'stylesheet', href: css }));
    load().then((loaded) => {
      module = loaded;
      if (ui.rerender) ui.rerender();
      else loaded.renderResults(el, data, ui);
    }).catch((e) => console.error(e));
  };
}
