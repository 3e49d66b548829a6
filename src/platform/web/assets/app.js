/* global document, window, navigator */
// Copy-to-clipboard buttons. The pages work without this script: the buttons stay hidden and
// keys and commands can be selected by hand.
(function () {
  'use strict';

  function textOf(element) {
    return 'value' in element ? element.value : element.textContent;
  }

  function fallbackCopy(element) {
    if ('select' in element) {
      element.select();
    } else {
      var range = document.createRange();
      range.selectNodeContents(element);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
    }
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }

  function flash(button, label) {
    var original = button.getAttribute('data-label') || button.textContent;
    button.setAttribute('data-label', original);
    button.textContent = label;
    button.classList.add('is-copied');
    window.clearTimeout(button._copyTimer);
    button._copyTimer = window.setTimeout(function () {
      button.textContent = original;
      button.classList.remove('is-copied');
    }, 2000);
  }

  document.querySelectorAll('[data-copy]').forEach(function (button) {
    var target = document.getElementById(button.getAttribute('data-copy'));
    if (!target) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var text = textOf(target).trim();
      var done = function () {
        flash(button, 'Copied');
      };
      var failed = function () {
        flash(button, fallbackCopy(target) ? 'Copied' : 'Press Ctrl+C');
      };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, failed);
      else failed();
    });
  });

  document.querySelectorAll('[data-select-on-focus]').forEach(function (input) {
    input.addEventListener('focus', function () {
      input.select();
    });
  });
})();
