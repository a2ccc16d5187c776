"""Take the screenshot of docs/serve.md: the page of ``python -m catena serve`` in headless Chromium.

    python examples/serve_screenshot.py docs/serve.png

Starts the server on a free port, plays a few moves on the side-5 board by clicking cells,
asks for a hint (the heatmap then covers the board) and saves the browser window as a PNG.
Needs the test extra (Selenium, Starlette, uvicorn) and Debian's chromium and chromium-driver.
"""

import argparse
import re
import shutil
import signal
import subprocess
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

MOVES = ["E5", "C3", "G6", "D7"]          # the person's (Black's) clicks; the engine answers each


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("png", help="the PNG file to write")
    parser.add_argument("--width", type=int, default=1180, help="window width in pixels (default 1180)")
    parser.add_argument("--height", type=int, default=1040, help="window height in pixels (default 1040)")
    args = parser.parse_args()

    server = subprocess.Popen([sys.executable, "-m", "catena", "serve", "--port", "0", "--no-open"],
                              stdout=subprocess.PIPE, text=True)
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars",
                     f"--window-size={args.width},{args.height}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=options)
    try:
        url = re.search(r"http://\S+/", server.stdout.readline()).group(0)
        driver.get(url + "?size=5&komi=6&colour=black&iterations=5000&seed=1")
        wait = WebDriverWait(driver, 120)
        for number, cell in enumerate(MOVES):
            wait.until(lambda d: "Your move" in d.find_element(By.ID, "status").text)
            driver.find_element(By.CSS_SELECTOR, f'#board polygon.cell[data-cell="{cell}"]').click()
            wanted = 4 + 2 * number               # the setup's two actions, then two moves a turn
            wait.until(lambda d, wanted=wanted: len(d.find_elements(By.CSS_SELECTOR, "#moves li")) == wanted)
        wait.until(lambda d: "Your move" in d.find_element(By.ID, "status").text)
        driver.find_element(By.ID, "hint").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-text li"))
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(args.png)
    finally:
        driver.quit()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    print(f"wrote {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
