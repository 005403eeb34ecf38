/**
 * Entry point. Errors anywhere go to the banner; a plain browser (no Tauri backend) gets
 * an explanation instead of a page whose every command would fail.
 */
import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './styles/app.css';
import { hasBackend } from './api';
import { App } from './app';
import { NoBackend } from './components/NoBackend';
import { installGlobalHandlers } from './errors';

installGlobalHandlers();

// Development only (`npm run dev`, then open /?mock): the fixtures stand in for the backend.
if (import.meta.env.DEV && new URLSearchParams(location.search).has('mock')) {
  const { installMockBackend } = await import('./dev/mockBackend');
  installMockBackend();
}

render(hasBackend() ? <App /> : <NoBackend />, document.getElementById('app')!);

if (import.meta.env.DEV && new URLSearchParams(location.search).has('demo')) {
  const { runDemo } = await import('./dev/mockBackend');
  runDemo(new URLSearchParams(location.search).get('demo')!);
}
