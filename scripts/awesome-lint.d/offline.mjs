// Loaded with `node --import` by scripts/awesome-lint: refuse every network request, so the
// check is the same offline and online and never contacts GitHub's API.
globalThis.fetch = async resource => {
	throw new Error(`scripts/awesome-lint runs offline; refused to fetch ${resource}`);
};
