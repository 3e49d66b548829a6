/* global document, window, fetch */
// The profile page's monitors card: loads the account's monitors (a fragment the server renders),
// sends the card's forms as JSON with the session's CSRF token, shows what the server answered
// (its message, when it refuses), and loads the list again after every change. Targets are
// pasted, one per line or comma separated, or read from a CSV file in the browser and put in the
// box to check before they are added; more than one request's worth is sent in several requests.
(function () {
  'use strict';

  var card = document.querySelector('[data-monitors]');
  if (!card) return;
  var csrf = card.getAttribute('data-csrf');
  var perCall = Number(card.getAttribute('data-max-targets')) || 500;
  var list = card.querySelector('[data-monitor-list]');
  var notice = card.querySelector('[data-monitors-notice]');
  var secretBox = card.querySelector('[data-monitor-secret]');
  var secretValue = card.querySelector('[data-monitor-secret-value]');
  // Header names a CSV column of targets is recognised by, compared without case, spaces or punctuation.
  var COLUMNS = ['domain', 'website', 'linkedinurl', 'linkedin'];

  var number = function (n) {
    return Number(n).toLocaleString('en');
  };
  var plural = function (n, word) {
    return number(n) + ' ' + word + (n === 1 ? '' : 's');
  };

  function showNotice(message) {
    notice.textContent = message;
    notice.className = 'alert alert--success';
    notice.hidden = false;
  }
  /** The error box of the monitor a form belongs to, or of the form itself (the create form). */
  function errorBoxOf(form) {
    var item = form.closest('[data-monitor-id]');
    return (item || form).querySelector('[data-monitor-error]');
  }
  function showError(form, message) {
    var box = errorBoxOf(form);
    box.textContent = message;
    box.hidden = false;
  }
  function clearErrors() {
    card.querySelectorAll('[data-monitor-error]').forEach(function (box) {
      box.hidden = true;
      box.textContent = '';
    });
  }

  function failure(response) {
    return response.json().then(
      function (json) {
        throw new Error(json.error || 'The server answered ' + response.status + '.');
      },
      function () {
        throw new Error('The server answered ' + response.status + '.');
      },
    );
  }

  function post(path, body) {
    body._csrf = csrf;
    return fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(function (response) {
      if (!response.ok) return failure(response);
      return response.json().then(function (json) {
        return json.data;
      });
    });
  }

  /** Loads the list again, keeping open what was open. */
  function refresh() {
    var open = [];
    list.querySelectorAll('details[open]').forEach(function (details) {
      var item = details.closest('[data-monitor-id]');
      if (item) open.push(item.getAttribute('data-monitor-id') + ' ' + details.getAttribute('data-monitor-details'));
    });
    return fetch('/account/monitors/list', { credentials: 'same-origin' })
      .then(function (response) {
        if (!response.ok) return failure(response);
        return response.text();
      })
      .then(function (fragment) {
        // Rendered by the server from the account's data, every value escaped there.
        list.innerHTML = fragment;
        list.querySelectorAll('details[data-monitor-details]').forEach(function (details) {
          var item = details.closest('[data-monitor-id]');
          var key = item.getAttribute('data-monitor-id') + ' ' + details.getAttribute('data-monitor-details');
          if (open.indexOf(key) >= 0) details.open = true;
        });
      })
      .catch(function (error) {
        list.textContent = '';
        var box = document.createElement('div');
        box.className = 'enrich-error';
        box.setAttribute('role', 'alert');
        box.textContent = 'Your monitors could not be loaded: ' + error.message;
        list.appendChild(box);
      });
  }

  /** The entries of the box: one per line or comma (or semicolon) separated, empty ones left out. */
  function entriesOf(text) {
    return text
      .split(/[\r\n,;]+/)
      .map(function (entry) {
        return entry.trim();
      })
      .filter(function (entry) {
        return entry !== '';
      });
  }

  /** RFC 4180 records: quoted fields with "" for a quote, comma or semicolon separated. */
  function csvRows(text) {
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    var firstLine = text.split(/\r?\n/, 1)[0];
    var delimiter = (firstLine.match(/;/g) || []).length > (firstLine.match(/,/g) || []).length ? ';' : ',';
    var rows = [];
    var row = [];
    var field = '';
    var quoted = false;
    for (var i = 0; i < text.length; i++) {
      var c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') {
          field += '"';
          i++;
        } else if (c === '"') quoted = false;
        else field += c;
      } else if (c === '"') quoted = true;
      else if (c === delimiter) {
        row.push(field);
        field = '';
      } else if (c === '\n' || c === '\r') {
        if (c === '\r' && text[i + 1] === '\n') i++;
        row.push(field);
        rows.push(row);
        row = [];
        field = '';
      } else field += c;
    }
    if (field !== '' || row.length > 0) {
      row.push(field);
      rows.push(row);
    }
    return rows.filter(function (r) {
      return r.some(function (cell) {
        return cell.trim() !== '';
      });
    });
  }

  /**
   * The targets of a CSV file: per row, the first filled column among those named domain, website,
   * linkedin_url or linkedin; without such a header, the first column (its first line left out when
   * it names the column rather than a company).
   */
  function targetsOfCsv(text) {
    var rows = csvRows(text);
    if (rows.length === 0) throw new Error('The file is empty.');
    var header = rows[0].map(function (name) {
      return name.toLowerCase().replace(/[^a-z0-9]/g, '');
    });
    var columns = [];
    COLUMNS.forEach(function (name) {
      header.forEach(function (cell, index) {
        if (cell === name && columns.indexOf(index) < 0) columns.push(index);
      });
    });
    var body = rows;
    if (columns.length > 0) body = rows.slice(1);
    else {
      columns = [0];
      if (rows[0][0].indexOf('.') < 0) body = rows.slice(1);
    }
    var targets = [];
    body.forEach(function (row) {
      for (var c = 0; c < columns.length; c++) {
        var value = (row[columns[c]] || '').trim();
        if (value !== '') {
          targets.push(value);
          return;
        }
      }
    });
    if (targets.length === 0) throw new Error('No targets in the file.');
    return targets;
  }

  card.addEventListener('change', function (event) {
    var input = event.target;
    if (!input.matches('[data-monitor-file]')) return;
    var form = input.closest('form');
    var box = form.querySelector('textarea');
    var outcome = form.querySelector('[data-monitor-outcome]');
    clearErrors();
    var file = input.files && input.files[0];
    if (!file) return;
    file.text().then(
      function (text) {
        try {
          var targets = targetsOfCsv(text);
          box.value = targets.join('\n');
          outcome.hidden = false;
          outcome.textContent = plural(targets.length, 'target') + ' read from ' + file.name + ': check them, then add them.';
        } catch (error) {
          showError(form, file.name + ': ' + error.message);
        }
      },
      function () {
        showError(form, file.name + ': the file could not be read.');
      },
    );
  });

  /** Sends the entries in requests of at most perCall each, adding up what they did. */
  function addTargets(id, entries) {
    var total = { added: 0, resolved: 0, pending: 0, skipped: 0, invalid: [] };
    var chunks = [];
    for (var i = 0; i < entries.length; i += perCall) chunks.push(entries.slice(i, i + perCall));
    return chunks.reduce(function (previous, chunk) {
      return previous.then(function () {
        return post('/account/monitors/' + id + '/targets', { targets: chunk }).then(function (data) {
          total.added += data.added;
          total.resolved += data.resolved;
          total.pending += data.pending;
          total.skipped += data.skipped;
          total.invalid = total.invalid.concat(data.invalid);
          return total;
        });
      });
    }, Promise.resolve(total));
  }

  function addedMessage(total) {
    var parts = [
      plural(total.added, 'target') + ' added: ' + number(total.resolved) + ' resolved, ' + number(total.pending) + ' pending.',
    ];
    if (total.skipped) parts.push(number(total.skipped) + ' already watched.');
    if (total.invalid.length) parts.push('Not a domain or LinkedIn URL, left out: ' + total.invalid.join(', ') + '.');
    return parts.join(' ');
  }

  /** The request a form makes, and what to say once it is done. */
  function actionOf(form) {
    var action = form.getAttribute('data-monitor-action');
    var item = form.closest('[data-monitor-id]');
    var id = item && item.getAttribute('data-monitor-id');
    var name = item && item.querySelector('[data-monitor-name]').textContent;
    switch (action) {
      case 'create': {
        var types = [];
        form.querySelectorAll('input[name="signal_types"]:checked').forEach(function (box) {
          types.push(box.value);
        });
        if (types.length === 0) return { problem: 'Choose at least one signal type.' };
        var url = form.elements.webhook_url.value.trim();
        var body = { name: form.elements.name.value.trim(), signal_types: types };
        if (url) body.webhook_url = url;
        return {
          send: function () {
            return post('/account/monitors', body);
          },
          done: function (data) {
            form.reset();
            secretValue.value = data.secret || '';
            secretBox.hidden = !data.secret;
            return 'Monitor “' + data.name + '” created. Add the companies to watch to it.';
          },
        };
      }
      case 'rename': {
        var newName = form.elements.name.value.trim();
        return {
          send: function () {
            return post('/account/monitors/' + id, { name: newName });
          },
          done: function (data) {
            return 'Monitor renamed “' + data.name + '”.';
          },
        };
      }
      case 'pause':
      case 'resume':
        return {
          send: function () {
            return post('/account/monitors/' + id, { active: action === 'resume' });
          },
          done: function () {
            return action === 'pause'
              ? 'Monitor “' + name + '” paused: its targets are kept, and nothing is sent until you resume it.'
              : 'Monitor “' + name + '” resumed.';
          },
        };
      case 'delete':
        if (!window.confirm('Delete the monitor “' + name + '” and its targets? Nothing more is sent for it.')) return null;
        return {
          send: function () {
            return post('/account/monitors/' + id + '/delete', {});
          },
          done: function () {
            return 'Monitor “' + name + '” deleted.';
          },
        };
      case 'targets': {
        var entries = entriesOf(form.elements.targets.value);
        if (entries.length === 0) return { problem: 'Paste some targets, or choose a CSV file, first.' };
        return {
          send: function () {
            return addTargets(id, entries);
          },
          done: function (total) {
            return 'To “' + name + '”: ' + addedMessage(total);
          },
        };
      }
      default:
        return null;
    }
  }

  card.addEventListener('submit', function (event) {
    var form = event.target.closest('[data-monitor-action]');
    if (!form) return;
    event.preventDefault();
    clearErrors();
    notice.hidden = true;
    var action = actionOf(form);
    if (!action) return;
    if (action.problem) {
      showError(form, action.problem);
      return;
    }
    var buttons = form.querySelectorAll('button');
    buttons.forEach(function (button) {
      button.disabled = true;
    });
    action
      .send()
      .then(function (data) {
        var message = action.done(data);
        return refresh().then(function () {
          showNotice(message);
        });
      })
      .catch(function (error) {
        showError(form, error.message);
      })
      .finally(function () {
        buttons.forEach(function (button) {
          button.disabled = false;
        });
      });
  });

  refresh();
})();
