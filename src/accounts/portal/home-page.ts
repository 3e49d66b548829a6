import { TIERS, type Config, type Tier } from '../../config.js';
import { MAX_USABLE_KEYS } from '../api-keys.js';
import { formatNumber, perWindow } from '../../platform/web/index.js';
import { html } from '../../platform/web/index.js';
import { layout, type PageContext } from '../../platform/web/index.js';

const TIER_NAMES: Record<Tier, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };
export const tierName = (tier: Tier) => TIER_NAMES[tier];

const TIER_PITCH: Record<Tier, string> = {
  free: 'Explore the data and build a prototype.',
  pro: 'For products and teams that run on signals.',
  enterprise: 'High volume, dedicated limits and support.',
};

const FEATURES = [
  {
    title: 'Funding & M&A',
    tag: 'v1',
    text: 'Venture rounds and acquisitions, filtered by country, category, round, amount, date and company. Exact totals and stable paging.',
  },
  {
    title: 'Market signals',
    tag: 'v2',
    text: 'Investors, executive job changes and acquisition signals with scores, searchable and filterable by role, seniority and region.',
  },
  {
    title: 'Built for production',
    tag: 'ops',
    text: 'Rolling rate limits with standard headers, credits you can see, and keys you can roll without downtime.',
  },
];

export function homePage(ctx: PageContext, config: Pick<Config, 'publicUrl' | 'credits' | 'rateLimits'>): string {
  const { rateLimits } = config;
  const plans = TIERS.map(
    (tier) =>
      html`<article class="card plan${tier === 'pro' ? ' plan--featured' : ''}">
        <header>
          <h3>${tierName(tier)}</h3>
          ${tier === 'pro' ? html`<span class="badge badge--brand">Popular</span>` : ''}
        </header>
        <p class="plan-pitch">${TIER_PITCH[tier]}</p>
        <p class="plan-figure">${formatNumber(config.credits[tier])}<span> credits / month</span></p>
        <ul class="checks">
          <li>${formatNumber(rateLimits.v2[tier])} signal requests ${perWindow(rateLimits.windowMs)}</li>
          <li>${formatNumber(rateLimits.v1)} funding &amp; M&amp;A requests ${perWindow(rateLimits.windowMs)}</li>
          <li>Up to ${MAX_USABLE_KEYS} working API keys; roll or revoke any time</li>
        </ul>
        ${tier === 'free' ? html`<a class="btn btn-primary btn-block" href="/signup">Start free</a>` : html`<p class="plan-note">Upgrades are arranged with our team.</p>`}
      </article>`,
  );
  const main = html`<section class="hero">
      <div class="container hero-grid">
        <div class="hero-copy">
          <p class="eyebrow">Business intelligence API</p>
          <h1>Funding rounds, M&amp;A and market signals, one request away.</h1>
          <p class="lead">
            Venture rounds, acquisitions, investors and executive moves as clean JSON over HTTP. Sign up, create a key and make
            your first call in a minute.
          </p>
          <div class="hero-actions">
            <a class="btn btn-primary btn-lg" href="${ctx.viewer ? '/account' : '/signup'}"
              >${ctx.viewer ? 'Go to your account' : 'Create a free account'}</a
            >
            <a class="btn btn-secondary btn-lg" href="/docs">Read the docs</a>
          </div>
          <p class="hero-note">Free plan includes ${formatNumber(config.credits.free)} credits every month. No card needed.</p>
        </div>
        <figure class="terminal" aria-label="Example request">
          <div class="terminal-bar">
            <span></span><span></span><span></span>
            <figcaption>Terminal</figcaption>
          </div>
          <pre><code><span class="t-prompt">$</span> curl -G '${config.publicUrl}/api/v2/signals/investors' \\
    -d countries=US -d limit=5 \\
    -H 'Authorization: Bearer YOUR_API_KEY'

{
  <span class="t-key">"success"</span>: <span class="t-lit">true</span>,
  <span class="t-key">"data"</span>: [ { <span class="t-key">"name"</span>: <span class="t-str">"…"</span>, <span class="t-key">"investorType"</span>: <span class="t-str">"vc"</span>, … } ],
  <span class="t-key">"pagination"</span>: { <span class="t-key">"currentPage"</span>: <span class="t-num">1</span>, <span class="t-key">"hasNextPage"</span>: <span class="t-lit">true</span>, … },
  <span class="t-key">"meta"</span>: { <span class="t-key">"creditsUsed"</span>: <span class="t-num">1</span>, <span class="t-key">"creditsRemaining"</span>: <span class="t-num">99</span> }
}</code></pre>
        </figure>
      </div>
    </section>
    <section class="container section" aria-labelledby="features-title">
      <h2 id="features-title" class="section-title">Everything you need to build on deal data</h2>
      <div class="grid grid-3">
        ${FEATURES.map(
          (f) =>
            html`<article class="card feature">
              <span class="tag">${f.tag}</span>
              <h3>${f.title}</h3>
              <p>${f.text}</p>
            </article>`,
        )}
      </div>
    </section>
    <section class="container section" aria-labelledby="plans-title">
      <h2 id="plans-title" class="section-title">Plans</h2>
      <p class="section-lead">
        Every successful v2 page costs one credit, whatever its size. Counting results and v1 calls are free.
      </p>
      <div class="grid grid-3">${plans}</div>
    </section>`;
  return layout(ctx, { title: 'Funding, M&A and signals API', main });
}
