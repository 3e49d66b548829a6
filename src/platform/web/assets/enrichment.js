/* global document, window, fetch, Blob */
// The profile page's enrichment card: reads a CSV file in the browser (UTF-8 with or without BOM,
// comma or semicolon, quoted fields), maps its columns to a company's name, website, LinkedIn page
// and country (guessed from the headers, correctable), creates the job, shows its progress, and
// builds the enriched CSV (the file's own columns first, then ours) and the JSON for download.
(function () {
  'use strict';

  var card = document.querySelector('[data-enrichment]');
  if (!card) return;
  var MAX_ROWS = 1000;
  var TYPES = ['funding', 'acquisition', 'hiring', 'job_change', 'investors'];
  // Header names each identifier is recognised by, compared without case, spaces or punctuation.
  var GUESSES = {
    name: ['companyname', 'name', 'company', 'account', 'accountname', 'organization', 'organisation', 'organizationname'],
    website: ['websiteurl', 'website', 'domain', 'companywebsite', 'companydomain', 'url', 'web', 'homepage'],
    linkedin: ['linkedinurl', 'linkedin', 'companylinkedinurl', 'linkedinpage', 'companylinkedin'],
    country: ['country', 'companycountry', 'hqcountry', 'headquarterscountry', 'billingcountry', 'countrycode'],
  };
  // The request field each mapped column is sent as; the file's other columns keep their names,
  // unless a name is one the API reads as an identifier (then it is sent as "<name> (column)").
  var FIELDS = { name: 'company_name', website: 'website_url', linkedin: 'linkedin_url', country: 'country' };
  var RESERVED = [
    'company_name',
    'companyName',
    'name',
    'website_url',
    'websiteUrl',
    'website',
    'domain',
    'linkedin_url',
    'linkedinUrl',
    'linkedin',
    'company_linkedin_url',
    'country',
    'company_country',
    'hq_country',
    'headquarters_country',
  ];

  var $ = function (selector) {
    return card.querySelector(selector);
  };
  var fileInput = $('[data-enrich-file]');
  var errorBox = $('[data-enrich-error]');
  var mapping = $('[data-enrich-mapping]');
  var rowsNote = $('[data-enrich-rows]');
  var startButton = $('[data-enrich-start]');
  var progress = $('[data-enrich-progress]');
  var statusLine = $('[data-enrich-status]');
  var meter = $('[data-enrich-meter]');
  var downloads = $('[data-enrich-downloads]');
  var csvLink = $('[data-enrich-csv]');
  var jsonLink = $('[data-enrich-json]');
  var selects = {};
  card.querySelectorAll('[data-enrich-column]').forEach(function (select) {
    selects[select.getAttribute('data-enrich-column')] = select;
  });
  var parsed = null;
  var fileName = '';

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }
  function clearError() {
    errorBox.hidden = true;
    errorBox.textContent = '';
  }
  var number = function (n) {
    return Number(n).toLocaleString('en');
  };

  /** The delimiter of the header line: the one of comma and semicolon found more often outside quotes. */
  function delimiterOf(text) {
    var commas = 0;
    var semicolons = 0;
    var quoted = false;
    for (var i = 0; i < text.length; i++) {
      var c = text[i];
      if (c === '"') quoted = !quoted;
      else if (!quoted && (c === '\n' || c === '\r')) break;
      else if (!quoted && c === ',') commas++;
      else if (!quoted && c === ';') semicolons++;
    }
    return semicolons > commas ? ';' : ',';
  }

  /**
   * RFC 4180 records: fields quoted or not, "" inside quotes, line breaks inside quotes; a record per
   * line otherwise. Throws an Error whose message names the line a malformation is on.
   */
  function parseCsv(text) {
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    var delimiter = delimiterOf(text);
    var records = [];
    var record = [];
    var field = '';
    var line = 1;
    var recordLine = 1;
    var i = 0;
    var atFieldStart = true;
    var fail = function (message) {
      throw new Error('Line ' + line + ': ' + message);
    };
    var endField = function () {
      record.push(field);
      field = '';
      atFieldStart = true;
    };
    var endRecord = function () {
      endField();
      if (!(record.length === 1 && record[0].trim() === '')) records.push({ line: recordLine, fields: record });
      record = [];
    };
    while (i < text.length) {
      var c = text[i];
      if (atFieldStart && c === '"') {
        // A quoted field: to the closing quote, "" being a quote.
        var opened = line;
        i++;
        for (;;) {
          if (i >= text.length) {
            line = opened;
            fail('a quoted field is not closed (a " is missing)');
          }
          var q = text[i];
          if (q === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (q === '\n') line++;
          field += q;
          i++;
        }
        var next = text[i];
        if (i < text.length && next !== delimiter && next !== '\n' && next !== '\r') {
          fail('text after a closing quote (quote the whole field, with "" for a quote inside it)');
        }
        atFieldStart = false;
        continue;
      }
      if (c === delimiter) {
        endField();
        i++;
        continue;
      }
      if (c === '\r' || c === '\n') {
        endRecord();
        if (c === '\r' && text[i + 1] === '\n') i++;
        i++;
        line++;
        recordLine = line;
        continue;
      }
      if (c === '"') fail('a quote inside an unquoted field (quote the whole field, with "" for a quote inside it)');
      field += c;
      atFieldStart = false;
      i++;
    }
    if (field !== '' || record.length > 0) endRecord();
    if (records.length === 0) throw new Error('The file is empty.');
    var header = records[0].fields.map(function (name) {
      return name.trim();
    });
    if (
      header.length < 1 ||
      header.every(function (name) {
        return name === '';
      })
    ) {
      throw new Error('Line 1: the first line must name the columns.');
    }
    var rows = records.slice(1);
    if (rows.length === 0) throw new Error('The file has a header line but no companies.');
    if (rows.length > MAX_ROWS) {
      throw new Error('The file has ' + number(rows.length) + ' companies: at most ' + number(MAX_ROWS) + ' a list.');
    }
    rows.forEach(function (row) {
      if (row.fields.length > header.length) {
        throw new Error(
          'Line ' +
            row.line +
            ': ' +
            row.fields.length +
            ' fields, but the header names ' +
            header.length +
            ' columns (a field with a ' +
            delimiter +
            ' in it must be quoted).',
        );
      }
      while (row.fields.length < header.length) row.fields.push('');
    });
    return { header: header, rows: rows, delimiter: delimiter };
  }

  var simple = function (name) {
    return name.toLowerCase().replace(/[^a-z0-9]/g, '');
  };

  function guess(header, kind) {
    var names = header.map(simple);
    for (var g = 0; g < GUESSES[kind].length; g++) {
      var at = names.indexOf(GUESSES[kind][g]);
      if (at >= 0) return at;
    }
    return -1;
  }

  function showMapping() {
    Object.keys(selects).forEach(function (kind) {
      var select = selects[kind];
      while (select.options.length > 1) select.remove(1);
      parsed.header.forEach(function (name, index) {
        var option = document.createElement('option');
        option.value = String(index);
        option.textContent = name || 'Column ' + (index + 1);
        select.appendChild(option);
      });
      var at = guess(parsed.header, kind);
      select.value = at >= 0 ? String(at) : '';
    });
    rowsNote.textContent =
      number(parsed.rows.length) + ' companies in ' + fileName + '. Check the columns, then start (1 credit).';
    mapping.hidden = false;
  }

  fileInput.addEventListener('change', function () {
    clearError();
    mapping.hidden = true;
    progress.hidden = true;
    downloads.hidden = true;
    parsed = null;
    var file = fileInput.files && fileInput.files[0];
    if (!file) return;
    fileName = file.name;
    file.text().then(
      function (text) {
        try {
          parsed = parseCsv(text);
          showMapping();
        } catch (error) {
          showError(fileName + ': ' + error.message);
        }
      },
      function () {
        showError(fileName + ': the file could not be read.');
      },
    );
  });

  /** The companies to send, or an Error naming the line of a row without any identifier. */
  function companiesOf() {
    var chosen = {};
    Object.keys(selects).forEach(function (kind) {
      if (selects[kind].value !== '') chosen[kind] = Number(selects[kind].value);
    });
    if (chosen.name === undefined && chosen.website === undefined && chosen.linkedin === undefined) {
      throw new Error('Choose the column of the company name, website or LinkedIn page.');
    }
    var mapped = Object.keys(chosen).map(function (kind) {
      return chosen[kind];
    });
    return parsed.rows.map(function (row) {
      var company = {};
      parsed.header.forEach(function (name, index) {
        if (mapped.indexOf(index) >= 0 || name === '' || row.fields[index] === '') return;
        company[RESERVED.indexOf(name) >= 0 ? name + ' (column)' : name] = row.fields[index];
      });
      var identified = false;
      Object.keys(chosen).forEach(function (kind) {
        var value = row.fields[chosen[kind]].trim();
        if (value === '') return;
        company[FIELDS[kind]] = value;
        if (kind !== 'country') identified = true;
      });
      if (!identified) throw new Error('Line ' + row.line + ': no company name, website or LinkedIn page in the chosen columns.');
      return company;
    });
  }

  function api(method, path, body) {
    return fetch(path, {
      method: method,
      credentials: 'same-origin',
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (response) {
      return response.json().then(
        function (json) {
          if (!response.ok) throw new Error(json.error || 'The server answered ' + response.status + '.');
          return json.data;
        },
        function () {
          throw new Error('The server answered ' + response.status + '.');
        },
      );
    });
  }

  var wait = function (ms) {
    return new Promise(function (resolve) {
      window.setTimeout(resolve, ms);
    });
  };

  function poll(jobId) {
    return api('GET', '/account/enrichment/' + jobId + '?limit=1').then(function (job) {
      meter.max = job.progress.total;
      meter.value = job.progress.processed;
      statusLine.textContent = 'Matching companies: ' + number(job.progress.processed) + ' of ' + number(job.progress.total);
      if (job.status === 'completed') return job;
      if (job.status === 'failed') throw new Error((job.error && job.error.message) || 'The job failed.');
      return wait(500).then(function () {
        return poll(jobId);
      });
    });
  }

  function allResults(jobId, cursor, results) {
    var path = '/account/enrichment/' + jobId + '?limit=100' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '');
    return api('GET', path).then(function (job) {
      results = results.concat(job.results);
      return job.nextCursor && job.results.length > 0
        ? allResults(jobId, job.nextCursor, results)
        : { job: job, results: results };
    });
  }

  var day = function (value) {
    return typeof value === 'string' ? value.slice(0, 10) : '';
  };
  /** The latest signal of a type as a date and a line of text. */
  function latest(type, signal) {
    if (!signal) return ['', ''];
    switch (type) {
      case 'funding':
        return [
          day(signal.announcedDate || signal.lastUpdated),
          [
            signal.roundType || 'Round',
            signal.fundingAmount != null ? number(signal.fundingAmount) : '',
            signal.fundingCurrency || '',
          ]
            .join(' ')
            .trim(),
        ];
      case 'acquisition':
        return [day(signal.lastUpdated), 'Acquisition signal, score ' + signal.acquisitionSignalScore];
      case 'hiring':
        return [day(signal.datePosted || signal.createdAt), signal.title + (signal.location ? ' (' + signal.location + ')' : '')];
      case 'job_change':
        return [day(signal.occurredAt), signal.personName + ' joined as ' + signal.newRole];
      default:
        return [day(signal.lastUpdated), signal.name || ''];
    }
  }

  var cell = function (value) {
    var text = value == null ? '' : String(value);
    return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  };

  /** The enriched CSV: the file's own columns first, then the company's and, per signal type, count, latest date and summary. */
  function enrichedCsv(results) {
    var ours = [
      'dealsignal_matched',
      'dealsignal_match_confidence',
      'dealsignal_matched_column',
      'dealsignal_company_id',
      'dealsignal_company_name',
      'dealsignal_domain',
      'dealsignal_industry',
      'dealsignal_country',
      'dealsignal_employee_count',
      'dealsignal_candidates',
    ];
    TYPES.forEach(function (type) {
      ours.push(type + '_count', type + '_latest_date', type + '_latest_summary');
    });
    var lines = [parsed.header.concat(ours).map(cell).join(',')];
    parsed.rows.forEach(function (row, i) {
      var result = results[i];
      var company = result.company || {};
      var candidates = (result.candidates || []).map(function (c) {
        return c.name + (c.country ? ' (' + c.country + ')' : '');
      });
      var values = [
        result.matched ? 'yes' : 'no',
        result.match_confidence,
        result.matchedField || '',
        result.companyId || '',
        company.name || '',
        company.domain || '',
        company.industry || '',
        company.country || '',
        company.employeeCount == null ? '' : company.employeeCount,
        candidates.join('; '),
      ];
      TYPES.forEach(function (type) {
        var last = latest(type, result.signals[type][0]);
        values.push(result.signalCounts[type], last[0], last[1]);
      });
      lines.push(row.fields.concat(values).map(cell).join(','));
    });
    return '\ufeff' + lines.join('\r\n') + '\r\n';
  }

  var base = function () {
    return fileName.replace(/\.csv$/i, '') || 'companies';
  };

  startButton.addEventListener('click', function () {
    clearError();
    downloads.hidden = true;
    var companies;
    try {
      companies = companiesOf();
    } catch (error) {
      showError(error.message);
      return;
    }
    startButton.disabled = true;
    progress.hidden = false;
    meter.value = 0;
    statusLine.textContent = 'Sending ' + number(companies.length) + ' companies…';
    api('POST', '/account/enrichment', { _csrf: card.getAttribute('data-csrf'), fileName: fileName, companies: companies })
      .then(function (created) {
        return poll(created.jobId).then(function () {
          return allResults(created.jobId, null, []);
        });
      })
      .then(function (done) {
        var summary = done.job.summary;
        statusLine.textContent =
          'Done: ' +
          number(summary.matched) +
          ' of ' +
          number(summary.totalInputs) +
          ' matched' +
          (summary.ambiguous ? ', ' + number(summary.ambiguous) + ' with a name several companies share' : '') +
          '.';
        csvLink.href = URL.createObjectURL(new Blob([enrichedCsv(done.results)], { type: 'text/csv;charset=utf-8' }));
        csvLink.download = base() + '-enriched.csv';
        var json = { jobId: done.job.jobId, summary: summary, results: done.results };
        jsonLink.href = URL.createObjectURL(new Blob([JSON.stringify(json, null, 2)], { type: 'application/json' }));
        jsonLink.download = base() + '-enriched.json';
        downloads.hidden = false;
      })
      .catch(function (error) {
        showError(error.message);
        progress.hidden = true;
      })
      .finally(function () {
        startButton.disabled = false;
      });
  });
})();
