// Runs in every test file (vitest setupFiles): the folders tempDir() made go after the file's last test.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(() => removeTempDirs());
