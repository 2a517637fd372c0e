// useStateStore: what a component reads from a StateStore, and when it renders.
import { act, render } from '@testing-library/preact';
import { useLayoutEffect } from 'react';
import { StateStore } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { useStateStore } from '../../src/session/use-state-store';

type State = { count: number; label: string };
const selectCount = (state: State) => ({ count: state.count });

function Counter({ store, renders }: { store: StateStore<State>; renders: number[] }) {
  const { count } = useStateStore(store, selectCount);
  renders.push(count);
  return <output>{count}</output>;
}

describe('useStateStore', () => {
  it('mounts with one render: subscribing hands back the slice just rendered', () => {
    const store = new StateStore<State>({ count: 1, label: 'a' });
    const renders: number[] = [];
    render(<Counter store={store} renders={renders} />);
    expect(renders).toEqual([1]);
    // A change outside the slice renders nothing; one inside it renders once.
    act(() => store.partialNext({ label: 'b' }));
    act(() => store.partialNext({ count: 2 }));
    expect(renders).toEqual([1, 2]);
  });

  it('renders a change made while it mounts', () => {
    const store = new StateStore<State>({ count: 1, label: 'a' });
    const renders: number[] = [];
    // A sibling committed after the counter changes the store in its own layout effect, as a
    // channel's answer can arrive while the panel showing it mounts.
    function Changer() {
      useLayoutEffect(() => store.partialNext({ count: 5 }), []);
      return null;
    }
    const { container } = render(
      <>
        <Counter store={store} renders={renders} />
        <Changer />
      </>,
    );
    expect(container.textContent).toBe('5');
    expect(renders).toEqual([1, 5]);
  });

  it('ends at the last value when the store moves on and back before rendering', () => {
    const store = new StateStore<State>({ count: 1, label: 'a' });
    const renders: number[] = [];
    const { container } = render(<Counter store={store} renders={renders} />);
    act(() => {
      store.partialNext({ count: 2 });
      store.partialNext({ count: 1 });
    });
    expect(container.textContent).toBe('1');
  });

  it('reads a new store from the first render after it is passed', () => {
    const first = new StateStore<State>({ count: 1, label: 'a' });
    const second = new StateStore<State>({ count: 7, label: 'a' });
    const renders: number[] = [];
    const { container, rerender } = render(<Counter store={first} renders={renders} />);
    rerender(<Counter store={second} renders={renders} />);
    expect(container.textContent).toBe('7');
    act(() => first.partialNext({ count: 3 }));
    act(() => second.partialNext({ count: 8 }));
    expect(container.textContent).toBe('8');
    expect(renders).toEqual([1, 7, 8]);
  });

  it('ignores the previous store once another is rendered, even before it unsubscribes', () => {
    const first = new StateStore<State>({ count: 1, label: 'a' });
    const second = new StateStore<State>({ count: 7, label: 'a' });
    const renders: number[] = [];
    // Committed before the counter, so its change reaches the counter's subscription to the
    // first store after the render that switched to the second and before that subscription ends.
    function Poke({ store }: { store: StateStore<State> | null }) {
      useLayoutEffect(() => store?.partialNext({ count: 3 }), [store]);
      return null;
    }
    const { container, rerender } = render(
      <>
        <Poke store={null} />
        <Counter store={first} renders={renders} />
      </>,
    );
    rerender(
      <>
        <Poke store={first} />
        <Counter store={second} renders={renders} />
      </>,
    );
    expect(container.textContent).toBe('7');
    expect(renders).toEqual([1, 7]);
  });
});
