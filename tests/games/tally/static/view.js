// Tally on the table's page: the smallest page view (docs/games.md, "The game's page
// view"), the one to copy. A row of pebbles per seat, drawn from the snapshot's `board`
// (the game's `page_view`); it acts for no one, since Tally is played with pebbles in a
// hat. Its words are its own, and the page's where it has none ("finished").

export const words = {
  fr: { "title": "Cailloux dans le chapeau", "turn": "à jouer" },
  en: { "title": "Pebbles in the hat", "turn": "to play" },
};

export function mount(container, page) {
  const root = document.createElement("div");
  root.className = "tally";
  const title = document.createElement("h2");
  const seats = document.createElement("ul");
  seats.className = "tally-seats";
  root.append(title, seats);
  container.append(root);
  return {
    update(snapshot) {
      const board = snapshot.board;
      root.hidden = !board;
      if (!board) return;
      title.textContent = page.t(board.over ? "finished" : "title");
      seats.replaceChildren(
        ...board.dropped.map((dropped, seat) => {
          const row = document.createElement("li");
          row.dataset.seat = String(seat);
          const pebbles = "●".repeat(dropped) + "○".repeat(board.pebbles - dropped);
          const name = snapshot.seats[seat] ?? String(seat + 1);
          const playing = !board.over && seat === board.turn;
          row.textContent = `${name} ${pebbles}${playing ? ` · ${page.t("turn")}` : ""}`;
          row.classList.toggle("turn", playing);
          return row;
        }),
      );
    },
  };
}
