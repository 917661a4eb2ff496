// awesome-lint reporter for scripts/awesome-lint: one line per message, in the project's
// `path:line:col: severity: message [rule]` form, then a count. Any message, warnings
// included, makes the process exit 1 (awesome-lint itself exits 0 on warnings).
import process from 'node:process';

export const report = files => {
	const lines = [];
	let errors = 0;
	let warnings = 0;
	for (const file of files) {
		for (const message of file.messages) {
			const severity = message.fatal === true ? 'error' : 'warning';
			if (severity === 'error') {
				errors++;
			} else {
				warnings++;
			}

			const line = message.line ?? 1;
			const column = message.column ?? 1;
			lines.push(`${file.path}:${line}:${column}: ${severity}: ${message.reason} [${message.ruleId ?? message.source}]`);
		}
	}

	if (errors + warnings > 0) {
		process.exitCode = 1;
	}

	lines.push(`awesome-lint: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
	return lines.join('\n');
};
