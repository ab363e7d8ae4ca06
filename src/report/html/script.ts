/**
 * The page's only script, inline (the page loads nothing): the "Show only failures" toggle. It is a
 * real button (Space and Enter press it) with aria-pressed; without the script the button stays
 * hidden and every conversation shows. Before printing it opens every folded <details>; a link to a
 * folded conversation unfolds it.
 */
export const PAGE_SCRIPT = `(function () {
  var button = document.getElementById('failures-toggle');
  var status = document.getElementById('toggle-status');
  if (!button || !status) return;
  var all = document.querySelectorAll('section.case').length;
  var failing = document.querySelectorAll('section.case[data-state="fail"]').length;
  function pressed() { return button.getAttribute('aria-pressed') === 'true'; }
  function set(on) {
    button.setAttribute('aria-pressed', on ? 'true' : 'false');
    document.body.classList.toggle('only-failures', on);
    status.textContent = on
      ? (failing === 0 ? 'No conversation failed: none to show.' : 'Showing only the ' + failing + ' failing of ' + all + ' conversations.')
      : 'Showing all ' + all + ' conversations.';
  }
  // Printing shows everything: every conversation, every folded command.
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('details').forEach(function (details) { details.open = true; });
  });
  button.hidden = false;
  button.addEventListener('click', function () { set(!pressed()); });
  // A link to a conversation unfolds it; one that the filter hides shows everything again first.
  function unfold(target) {
    var fold = target ? target.querySelector('details.conversation-fold') : null;
    if (fold) fold.open = true;
  }
  document.addEventListener('click', function (event) {
    var link = event.target instanceof Element ? event.target.closest('a[href^="#case-"]') : null;
    if (!link) return;
    var target = document.getElementById(decodeURIComponent(link.getAttribute('href').slice(1)));
    unfold(target);
    if (pressed() && target && target.getAttribute('data-state') !== 'fail') set(false);
  });
  if (location.hash.indexOf('#case-') === 0) unfold(document.getElementById(decodeURIComponent(location.hash.slice(1))));
})();`;
