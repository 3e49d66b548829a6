// The profile page's enrichment card: pick a CSV file, check which columns hold the company's name,
// website, LinkedIn page and country, start, watch the progress, download the enriched CSV and the
// JSON. The file is read in the browser (assets/enrichment.js); the page's own routes
// (portal-routes.ts) create the job and read it, as the API does, for the signed-in account.
import { html, type SafeHtml } from '../platform/web/index.js';
import { MAX_COMPANIES } from './schemas.js';

const column = (id: string, label: string, hint: string) =>
  html`<div class="field">
    <label for="enrich-${id}">${label}</label>
    <select id="enrich-${id}" data-enrich-column="${id}" class="select">
      <option value="">(none)</option>
    </select>
    <p class="field-hint">${hint}</p>
  </div>`;

export function enrichmentCard(csrfToken: string): SafeHtml {
  return html`<section class="card" aria-labelledby="enrichment-title" id="enrichment" data-enrichment data-csrf="${csrfToken}">
    <header class="card-head">
      <div>
        <h2 id="enrichment-title">Enrich a list</h2>
        <p class="card-sub">
          Upload a CSV of up to ${MAX_COMPANIES.toLocaleString('en')} companies (a CRM export: UTF-8, comma or semicolon
          separated, a header row). Each is matched to our companies by website, LinkedIn page or name, and comes back with its
          funding, acquisition, hiring, job-change and investor signals. 1 credit a list; downloading the results is free.
        </p>
      </div>
    </header>
    <noscript><p class="muted">Enriching a file needs JavaScript: the file is read in your browser.</p></noscript>
    <div class="form" data-enrich-form>
      <div class="field">
        <label for="enrich-file">CSV file</label>
        <input id="enrich-file" type="file" accept=".csv,text/csv" data-enrich-file />
        <p class="field-hint">Your columns are kept: the enriched file has them first, then ours.</p>
      </div>
      <div class="enrich-error" role="alert" data-enrich-error hidden></div>
      <fieldset class="fieldset" data-enrich-mapping hidden>
        <legend>Columns</legend>
        <p class="field-hint" data-enrich-rows></p>
        ${column('name', 'Company name', 'Matched when no website or LinkedIn page matches')}
        ${column('website', 'Website or domain', 'The surest match')}
        ${column('linkedin', 'LinkedIn company page', 'linkedin.com/company/…')}
        ${column('country', 'Country', 'Chooses among companies of the same name')}
        <div class="actions"><button class="btn btn-primary" type="button" data-enrich-start>Enrich</button></div>
      </fieldset>
      <div data-enrich-progress hidden>
        <p role="status" data-enrich-status></p>
        <progress class="meter" max="1" value="0" data-enrich-meter></progress>
      </div>
      <div class="actions" data-enrich-downloads hidden>
        <a class="btn btn-primary" data-enrich-csv download>Download enriched CSV</a>
        <a class="btn btn-secondary" data-enrich-json download>Download JSON</a>
      </div>
    </div>
  </section>`;
}
