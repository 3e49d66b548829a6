/* global document, window, navigator, MutationObserver */
// The API reference page (/docs) in the portal's look: Swagger UI (which keeps "Try it out"), with
// the site's header (logo, a link home, sign-in and sign-up) and each operation's three code
// samples as language tabs with a copy button. Swagger UI renders the samples as the markdown
// section at the end of the operation's description (see src/platform/http/code-samples.ts); this script
// turns that section into tabs once Swagger UI has drawn it. Everything is built with DOM calls,
// no inline style or script, so the page's strict content policy holds.
(function () {
  'use strict';

  var SAMPLES_TITLE = 'Code samples';
  var sampleCount = 0;

  function element(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      if (name === 'text') node.textContent = attributes[name];
      else node.setAttribute(name, attributes[name]);
    });
    (children || []).forEach(function (child) {
      node.appendChild(child);
    });
    return node;
  }

  // ---- the site's header

  function header() {
    var icon = document.querySelector('link[rel="icon"]');
    var logo = element('img', { src: icon ? icon.getAttribute('href') : '', width: '28', height: '28', alt: '' });
    var brand = element('a', { class: 'ds-brand', href: '/' }, [logo, element('span', { text: 'dealsignal' })]);
    var section = element('span', { class: 'ds-section', text: 'API reference' });
    var nav = element('nav', { class: 'ds-nav', 'aria-label': 'Main' }, [
      element('a', { href: '/', text: 'Home' }),
      element('a', { href: '/docs', 'aria-current': 'page', text: 'Docs' }),
      element('a', { href: '/account', text: 'Account' }),
      element('a', { class: 'ds-btn ds-btn-primary', href: '/signup', text: 'Get an API key' }),
    ]);
    var inner = element('div', { class: 'ds-header-inner' }, [element('div', { class: 'ds-brand-row' }, [brand, section]), nav]);
    return element('header', { class: 'ds-header' }, [inner]);
  }

  // ---- code samples as tabs

  function copyText(text, button) {
    function done(label) {
      button.textContent = label;
      button.classList.add('is-copied');
      window.clearTimeout(button._copyTimer);
      button._copyTimer = window.setTimeout(function () {
        button.textContent = 'Copy';
        button.classList.remove('is-copied');
      }, 2000);
    }
    function fallback() {
      var area = element('textarea', { class: 'ds-copy-buffer', readonly: '' });
      area.value = text;
      document.body.appendChild(area);
      area.select();
      var copied = false;
      try {
        copied = document.execCommand('copy');
      } catch {
        copied = false;
      }
      document.body.removeChild(area);
      done(copied ? 'Copied' : 'Press Ctrl+C');
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () {
        done('Copied');
      }, fallback);
    } else {
      fallback();
    }
  }

  function select(tabs, panels, index, focus) {
    tabs.forEach(function (tab, i) {
      var selected = i === index;
      tab.setAttribute('aria-selected', selected ? 'true' : 'false');
      tab.tabIndex = selected ? 0 : -1;
      panels[i].hidden = !selected;
    });
    if (focus) tabs[index].focus();
  }

  /** The samples section of a rendered description: its title paragraph and (label, code) pairs. */
  function samplesOf(markdown) {
    var paragraphs = markdown.querySelectorAll(':scope > p');
    for (var i = 0; i < paragraphs.length; i++) {
      var first = paragraphs[i].firstElementChild;
      if (!first || first.tagName !== 'STRONG' || first.textContent !== SAMPLES_TITLE) continue;
      var pairs = [];
      var node = paragraphs[i].nextElementSibling;
      while (node && node.tagName === 'P' && node.nextElementSibling && node.nextElementSibling.tagName === 'PRE') {
        pairs.push({ label: node, code: node.nextElementSibling });
        node = node.nextElementSibling.nextElementSibling;
      }
      if (pairs.length > 0) return { title: paragraphs[i], pairs: pairs };
    }
    return null;
  }

  function tabsFor(markdown) {
    var found = samplesOf(markdown);
    if (!found) return;
    var id = 'ds-samples-' + ++sampleCount;
    var note = found.title.textContent.replace(SAMPLES_TITLE, '').trim();
    var tablist = element('div', { class: 'ds-tablist', role: 'tablist', 'aria-label': SAMPLES_TITLE });
    var tabs = [];
    var panels = [];
    found.pairs.forEach(function (pair, i) {
      // "JavaScript (@dealsignal/client)": the language on the tab, the rest in its tooltip.
      var full = pair.label.textContent.replace(/:\s*$/, '').trim();
      var label = full.replace(/\s*\(.*\)$/, '');
      var tab = element('button', {
        type: 'button',
        class: 'ds-tab',
        role: 'tab',
        id: id + '-tab-' + i,
        'aria-controls': id + '-panel-' + i,
        title: full,
        text: label,
      });
      var copy = element('button', {
        type: 'button',
        class: 'ds-copy',
        'aria-label': 'Copy the ' + label + ' sample',
        text: 'Copy',
      });
      var code = pair.code;
      copy.addEventListener('click', function () {
        copyText(code.textContent.replace(/\n$/, ''), copy);
      });
      var panel = element('div', { class: 'ds-panel', role: 'tabpanel', id: id + '-panel-' + i, 'aria-labelledby': tab.id }, [
        copy,
        code,
      ]);
      tab.addEventListener('click', function () {
        select(tabs, panels, i, false);
      });
      tab.addEventListener('keydown', function (event) {
        var step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
        if (!step) return;
        event.preventDefault();
        select(tabs, panels, (i + step + tabs.length) % tabs.length, true);
      });
      tablist.appendChild(tab);
      tabs.push(tab);
      panels.push(panel);
      pair.label.remove();
    });
    var head = element('div', { class: 'ds-samples-head' }, [
      element('span', { class: 'ds-samples-title', text: SAMPLES_TITLE }),
      element('span', { class: 'ds-samples-note', text: note.replace(/^\((.*)\)$/, '$1') }),
    ]);
    var box = element('div', { class: 'ds-samples' }, [head, tablist].concat(panels));
    found.title.replaceWith(box);
    select(tabs, panels, 0, false);
  }

  function enhance(root) {
    root
      .querySelectorAll('.opblock-description-wrapper .markdown, .opblock-description-wrapper .renderedMarkdown')
      .forEach(function (markdown) {
        if (markdown.getAttribute('data-ds-samples') === 'done') return;
        markdown.setAttribute('data-ds-samples', 'done');
        tabsFor(markdown);
      });
  }

  document.body.insertBefore(header(), document.body.firstChild);
  document.body.classList.add('ds-docs');
  var root = document.getElementById('swagger-ui');
  new MutationObserver(function () {
    enhance(root);
  }).observe(root, { childList: true, subtree: true });
})();
