/** Test setup: every test starts with no IPC mock and an empty error banner. */
import { clearMocks } from '@tauri-apps/api/mocks';
import { cleanup } from '@testing-library/preact';
import { afterEach } from 'vitest';
import { dismissErrors } from '../errors';

afterEach(() => {
  cleanup();
  clearMocks();
  dismissErrors();
});
