// Every renderer test: findBy*/waitFor wait up to 5 s (Testing Library's default is 1 s).
// These tests render the whole console against a real backend on loopback; on a loaded
// 2-core machine a first render can take over a second. Waiting longer changes no
// assertion: what is awaited must still appear.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });
