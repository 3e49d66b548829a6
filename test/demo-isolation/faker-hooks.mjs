// Module hooks (run on the loader's thread): every resolved URL of @faker-js is posted to the port
// watch-faker.ts handed over.
let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.includes('/@faker-js/')) port.postMessage(resolved.url);
  return resolved;
}
