document.title += " (deck)";
