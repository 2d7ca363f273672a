// Jest reads testTimeout only from the top-level configuration, not from a project's; integration tests
// talk to real servers on a loaded machine, so they get two minutes each.
import { jest } from '@jest/globals';

jest.setTimeout(120_000);
