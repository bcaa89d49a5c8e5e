import('./dist/cli.js')
